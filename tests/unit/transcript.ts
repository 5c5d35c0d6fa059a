/**
 * A realistic transcript for the export tests, built the way the server builds it: requests as the
 * sender writes them, then passed through the server's present() (secret redacted, findings added).
 * Consent, callback, code exchange, user-info, refresh, a zone-2 call refused with 403, and a failure.
 */
import { diagnoseCallback, type DiagnoseContext } from '$lib/oauth/diagnose';
import { exchangeBody, refreshBody } from '$lib/oauth/token-endpoint';
import { present as serverPresent } from '$lib/server/steps/send-step';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { testApp } from './test-app';
import { stepOf } from './flow-modules';
import type { StepContext } from '$lib/server/flow/context';

export const ORIGIN = 'http://127.0.0.1:5173';
export const BASE = `${ORIGIN}/sandbox`;
export const CLIENT_ID = 'sandbox-rw';
/** What the server knew and redacted; it must never appear in an export. */
export const SECRET = 'sandbox-rw-secret';
export const STATE = 'q8Jx2mZ0VbYtN4kP7sLwR1cF9hD3gA6eU5iO0nMzXyQ';
export const CODE = 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJjb2RlIiwianRpIjoiYzEifQ.Zm9vYmFyYmF6cXV4';
export const ACCESS_1 =
	'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJhdCIsInN1YiI6InUxIiwianRpIjoiYTEifQ.QUNDRVNTXzFfc2ln';
export const REFRESH_1 =
	'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJydCIsInN1YiI6InUxIiwianRpIjoicjEifQ.UkVGUkVTSF8xX3NpZw';
export const ACCESS_2 =
	'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJhdCIsInN1YiI6InUxIiwianRpIjoiYTIifQ.QUNDRVNTXzJfc2ln';
export const REFRESH_2 =
	'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJydCIsInN1YiI6InUxIiwianRpIjoicjIifQ.UkVGUkVTSF8yX3NpZw';
export const TOKENS = [ACCESS_1, REFRESH_1, ACCESS_2, REFRESH_2];

const UA = 'feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)';
const FORM = 'application/x-www-form-urlencoded';
const T0 = Date.parse('2026-03-14T09:26:53.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function sent(method: string, url: string, extra: HeaderList, body = ''): Exchange['request'] {
	const u = new URL(url);
	const headers: HeaderList = [
		['Host', u.host],
		['User-Agent', UA],
		['Accept', 'application/json'],
		...extra
	];
	if (body || method === 'POST')
		headers.push(['Content-Length', String(new TextEncoder().encode(body).length)]);
	headers.push(['Connection', 'keep-alive']);
	return { method, url, httpVersion: '1.1', headers, body };
}

function json(
	status: number,
	statusText: string,
	body: unknown,
	extra: HeaderList = []
): NonNullable<Exchange['response']> {
	const text = JSON.stringify(body);
	return {
		status,
		statusText,
		httpVersion: '1.1',
		headers: [
			['Content-Type', 'application/json; charset=utf-8'],
			...extra,
			['Date', 'Sat, 14 Mar 2026 09:26:55 GMT'],
			['Content-Length', String(new TextEncoder().encode(text).length)],
			['Connection', 'keep-alive'],
			['Keep-Alive', 'timeout=5']
		],
		body: text,
		truncated: false
	};
}

const usage = (z1: number, z2: number): HeaderList => [
	['X-Reader-Zone1-Usage', String(z1)],
	['X-Reader-Zone1-Limit', '100'],
	['X-Reader-Zone2-Usage', String(z2)],
	['X-Reader-Zone2-Limit', '10'],
	['X-Reader-Limits-Reset-After', '583']
];

/** What the flow hands present(): an app of the tests' own, on ORIGIN, made on first use. */
let step: StepContext | undefined;

/** What leaves the server: its own present(), for a session that holds the secret. */
const present = (ex: Exchange, ctx: DiagnoseContext = {}): Exchange =>
	serverPresent((step ??= stepOf(testApp(1), ORIGIN)), ex, { v: 1, client_secret: SECRET }, ctx);

export function transcript(): Exchange[] {
	const redirect = `${ORIGIN}/callback`;
	const consentUrl = new URL(`${BASE}/oauth2/auth`);
	for (const [k, v] of [
		['client_id', CLIENT_ID],
		['redirect_uri', redirect],
		['response_type', 'code'],
		['scope', 'read'],
		['state', STATE]
	] as const)
		consentUrl.searchParams.set(k, v);
	const consent: Exchange = {
		id: 'c0a1f7e2-0001-4b1e-9a52-6f1d2e3c4b01',
		step: 'consent',
		startedAt: at(0),
		request: {
			method: 'GET',
			url: consentUrl.toString(),
			httpVersion: '1.1',
			headers: [['Host', '127.0.0.1:5173']],
			body: ''
		},
		timing: { total: 0 },
		findings: [],
		note: 'The browser opens this URL; the service shows its consent page.'
	};
	const callback: Exchange = {
		id: 'c0a1f7e2-0002-4b1e-9a52-6f1d2e3c4b02',
		step: 'callback',
		startedAt: at(4),
		request: {
			method: 'GET',
			url: `${redirect}?code=${CODE}&state=${STATE}`,
			httpVersion: '1.1',
			headers: [
				['host', '127.0.0.1:5173'],
				[
					'user-agent',
					'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
				],
				['accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
				['referer', `${BASE}/oauth2/auth`],
				['cookie', '<session cookie, not shown>'],
				['sec-fetch-site', 'same-origin']
			],
			body: ''
		},
		response: {
			status: 303,
			statusText: 'See Other',
			httpVersion: '1.1',
			headers: [['Location', '/']],
			body: '',
			truncated: false
		},
		timing: { total: 0 },
		findings: diagnoseCallback('code'),
		note: 'The service sent the browser back to the playground.'
	};
	const tokenUrl = `${BASE}/oauth2/token`;
	const exchange = present(
		{
			id: 'c0a1f7e2-0003-4b1e-9a52-6f1d2e3c4b03',
			step: 'exchange',
			startedAt: at(4.2),
			request: sent(
				'POST',
				tokenUrl,
				[['Content-Type', FORM]],
				exchangeBody({
					code: CODE,
					redirect_uri: redirect,
					client_id: CLIENT_ID,
					client_secret: SECRET
				})
			),
			response: json(
				200,
				'OK',
				{
					access_token: ACCESS_1,
					token_type: 'Bearer',
					expires_in: 3600,
					refresh_token: REFRESH_1,
					scope: 'read'
				},
				[
					['Cache-Control', 'no-store'],
					['Pragma', 'no-cache']
				]
			),
			timing: { dns: 0.41, connect: 0.52, firstByte: 7.83, total: 8.12 },
			findings: [],
			note: 'The code exchange, from the playground server.'
		},
		{ requestedScope: 'read' }
	);
	const userinfo = present(
		{
			id: 'c0a1f7e2-0004-4b1e-9a52-6f1d2e3c4b04',
			step: 'userinfo',
			startedAt: at(9),
			request: sent('GET', `${BASE}/reader/api/0/user-info`, [
				['Authorization', `Bearer ${ACCESS_1}`]
			]),
			response: json(
				200,
				'OK',
				{
					userId: '1001',
					userName: 'Ada',
					userProfileId: '1001',
					userEmail: 'ada@example.org',
					isBloggerUser: false,
					signupTimeSec: 1700000000,
					isMultiLoginEnabled: false
				},
				usage(1, 0)
			),
			timing: { firstByte: 3.1, total: 3.4 },
			findings: [],
			note: 'The user-info read (the service’s API docs §4.4).'
		},
		{ requestedScope: 'read', tokenExpiresAt: T0 + 3_604_200 }
	);
	const refresh = present(
		{
			id: 'c0a1f7e2-0005-4b1e-9a52-6f1d2e3c4b05',
			step: 'refresh',
			startedAt: at(20),
			request: sent(
				'POST',
				tokenUrl,
				[['Content-Type', FORM]],
				refreshBody({ client_id: CLIENT_ID, client_secret: SECRET, refresh_token: REFRESH_1 })
			),
			response: json(
				200,
				'OK',
				{
					access_token: ACCESS_2,
					token_type: 'Bearer',
					expires_in: 3600,
					refresh_token: REFRESH_2
				},
				[
					['Cache-Control', 'no-store'],
					['Pragma', 'no-cache']
				]
			),
			timing: { firstByte: 5.5, total: 5.9 },
			findings: [],
			note: 'The refresh, from the playground server.'
		},
		{ requestedScope: 'read' }
	);
	const editBody =
		'i=tag%3Agoogle.com%2C2005%3Areader%2Fitem%2F0000000000000001&a=user%2F-%2Fstate%2Fcom.google%2Fread';
	const api403 = present(
		{
			id: 'c0a1f7e2-0006-4b1e-9a52-6f1d2e3c4b06',
			step: 'api',
			startedAt: at(31),
			request: sent(
				'POST',
				`${BASE}/reader/api/0/edit-tag`,
				[
					['Authorization', `Bearer ${ACCESS_2}`],
					['Content-Type', FORM]
				],
				editBody
			),
			response: json(
				403,
				'Forbidden',
				{
					error: 'insufficient_scope',
					error_description: 'This call needs the "read write" scope.'
				},
				[
					[
						'WWW-Authenticate',
						'Bearer realm="sandbox", error="insufficient_scope", scope="read write"'
					],
					...usage(2, 0)
				]
			),
			timing: { firstByte: 2.2, total: 2.5 },
			findings: [],
			note: 'POST /sandbox/reader/api/0/edit-tag'
		},
		{ requestedScope: 'read', tokenExpiresAt: T0 + 3_620_000 }
	);
	const failed = present(
		{
			id: 'c0a1f7e2-0007-4b1e-9a52-6f1d2e3c4b07',
			step: 'api',
			startedAt: at(40),
			request: sent('GET', 'http://127.0.0.1:5999/reader/api/0/unread-count?output=json', [
				['Authorization', `Bearer ${ACCESS_2}`]
			]),
			failure: {
				kind: 'refused',
				message: 'Nothing is listening at 127.0.0.1:5999: the connection was refused.'
			},
			timing: { dns: 0.2, total: 1.3 },
			findings: [],
			note: 'GET /reader/api/0/unread-count'
		},
		{ requestedScope: 'read', tokenExpiresAt: T0 + 3_620_000 }
	);
	return [consent, callback, exchange, userinfo, refresh, api403, failed];
}
