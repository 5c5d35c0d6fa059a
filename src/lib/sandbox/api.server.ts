/**
 * The reader API of the sandbox, under `/sandbox/reader/api/0/` (the service's API docs §4.4 and §5 step 7).
 *
 * - Bearer token in `Authorization: Bearer …` (RFC 6750 §2.1) or the `access_token` query parameter
 *   (§2.3); errors as in §3 and §3.1.
 * - Zone 1: reads (GET). Zone 2: writes (POST, form-urlencoded), which need the `read write` scope.
 * - Every answer carries the X-Reader-* rate-limit headers; over a limit the answer is 429.
 * - Writes answer `200 OK` in plain text, as Google Reader did; every error is JSON.
 */
import type { SandboxClient } from './sandbox-config.server';
import { findClient, limitsFor } from './clients.server';
import {
	DEMO_USER,
	READING_LIST,
	editTag,
	markAllAsRead,
	streamContents,
	streamItemIds,
	subscriptionList,
	tagList,
	unreadCount,
	type StreamQuery
} from './demo.server';
import { isFormContentType, jsonResponse, readBodyCapped } from './http.server';
import { usageHeaders, type Usage } from './zone-limits.server';
import {
	READER_ENDPOINTS,
	readerEndpointAt,
	type ReaderEndpoint,
	type ReaderEndpointName,
	type ReaderZone
} from './reader-endpoints';
import { hasWrite } from './scope.server';
import { verifyAccessToken, type AccessClaims } from './signing.server';
import type { Sandbox } from './sandbox.server';
import { loadReader, namespaceOf, updateReader } from './state.server';
import { StoreUnavailable } from './store.server';

/** An endpoint of the table (reader-endpoints.ts: method, zone) with the handler that answers it. */
interface Endpoint extends ReaderEndpoint {
	handle: (ctx: Context) => Response | Promise<Response>;
}

interface Context {
	sandbox: Sandbox;
	client: SandboxClient;
	claims: AccessClaims;
	/** Where this token's demo data and budgets live (`namespaceOf`). */
	ns: string;
	/** The rest of the path after a prefix endpoint's name. */
	rest: string;
	params: URLSearchParams;
	headers: Record<string, string>;
}

const ok = (ctx: Context, body: unknown) => jsonResponse(200, body, ctx.headers);

const plainOk = (ctx: Context) =>
	new Response('OK', {
		status: 200,
		headers: {
			'Content-Type': 'text/plain; charset=utf-8',
			'Cache-Control': 'no-store',
			...ctx.headers
		}
	});

function apiError(
	status: number,
	error: string,
	error_description: string,
	headers: Record<string, string>
): Response {
	return jsonResponse(status, { error, error_description }, headers);
}

function streamQuery(params: URLSearchParams): StreamQuery {
	const n = Number(params.get('n') ?? '20');
	return {
		n: Number.isInteger(n) ? Math.min(100, Math.max(1, n)) : 20,
		r: params.get('r') ?? undefined,
		xt: params.get('xt') ?? undefined,
		c: params.get('c') ?? undefined
	};
}

function unknownStream(ctx: Context, id: string): Response {
	return apiError(
		404,
		'not_found',
		`Unknown stream ${JSON.stringify(id.slice(0, 200))}`,
		ctx.headers
	);
}

/** Demo data lives as long as a refresh token could: every change extends it. */
const stateUntil = ({ clock, settings }: Sandbox) =>
	Math.floor(clock() / 1000) + settings.refreshTtl;

/** How each endpoint of the table answers. */
const HANDLERS: Record<ReaderEndpointName, Endpoint['handle']> = {
	'user-info': (ctx) => ok(ctx, DEMO_USER),
	'subscription/list': (ctx) => ok(ctx, subscriptionList()),
	'tag/list': (ctx) => ok(ctx, tagList()),
	'unread-count': async (ctx) => ok(ctx, unreadCount(await loadReader(ctx.sandbox, ctx.ns))),
	'stream/contents': async (ctx) => {
		const id = ctx.rest || ctx.params.get('s') || READING_LIST;
		const body = streamContents(id, streamQuery(ctx.params), await loadReader(ctx.sandbox, ctx.ns));
		return body ? ok(ctx, body) : unknownStream(ctx, id);
	},
	'stream/items/ids': async (ctx) => {
		const id = ctx.params.get('s');
		if (!id)
			return apiError(400, 'invalid_request', 'Parameter s (stream id) is required', ctx.headers);
		const body = streamItemIds(id, streamQuery(ctx.params), await loadReader(ctx.sandbox, ctx.ns));
		return body ? ok(ctx, body) : unknownStream(ctx, id);
	},
	'edit-tag': async (ctx) => {
		const p = ctx.params;
		const result = await updateReader(ctx.sandbox, ctx.ns, stateUntil(ctx.sandbox), (state) =>
			editTag(state, p.getAll('i'), p.getAll('a'), p.getAll('r'))
		);
		return result.ok
			? plainOk(ctx)
			: apiError(400, 'invalid_request', result.description, ctx.headers);
	},
	'mark-all-as-read': async (ctx) => {
		const p = ctx.params;
		const result = await updateReader(ctx.sandbox, ctx.ns, stateUntil(ctx.sandbox), (state) =>
			markAllAsRead(state, p.get('s') ?? undefined, p.get('ts') ?? undefined)
		);
		return result.ok
			? plainOk(ctx)
			: apiError(400, 'invalid_request', result.description, ctx.headers);
	}
};

/** The endpoint a path names (the table's row with its handler), and the rest of the path after it. */
export function findEndpoint(
	path: string
): { name: ReaderEndpointName; endpoint: Endpoint; rest: string } | undefined {
	const found = readerEndpointAt(path);
	return found && { ...found, endpoint: { ...found.endpoint, handle: HANDLERS[found.name] } };
}

/** The names of every endpoint, with method and zone (shown on the /sandbox page). */
export function endpointList(): {
	path: string;
	method: ReaderEndpoint['method'];
	zone: ReaderZone;
}[] {
	return Object.entries(READER_ENDPOINTS).map(([name, e]: [string, ReaderEndpoint]) => ({
		path: e.prefix ? `${name}/<stream id>` : name,
		method: e.method,
		zone: e.zone
	}));
}

type TokenLookup =
	| { ok: true; client: SandboxClient; claims: AccessClaims }
	| {
			ok: false;
			status: 400 | 401;
			error?: 'invalid_request' | 'invalid_token';
			description: string;
	  };

/** RFC 6750 §2.1 and §2.3: where the token is; §3.1: what is wrong with it. */
async function lookUpToken(
	sandbox: Sandbox,
	request: Request,
	url: URL,
	now: number
): Promise<TokenLookup> {
	const header = request.headers.get('authorization');
	const query = url.searchParams.getAll('access_token');
	const bearer =
		header !== null && /^bearer\s+/i.test(header.trim())
			? header.trim().replace(/^bearer\s+/i, '')
			: undefined;
	if (bearer !== undefined && query.length) {
		return {
			ok: false,
			status: 400,
			error: 'invalid_request',
			description:
				'The access token was sent twice (Authorization header and access_token parameter): use one'
		};
	}
	if (query.length > 1)
		return {
			ok: false,
			status: 400,
			error: 'invalid_request',
			description: 'The access_token parameter is repeated'
		};
	const token = bearer ?? query[0];
	if (!token) {
		const other =
			header !== null && header.trim()
				? ' (the Authorization header does not use the Bearer scheme)'
				: '';
		return {
			ok: false,
			status: 401,
			description: `An access token is required: send Authorization: Bearer <token>${other}`
		};
	}
	const verified = await verifyAccessToken(sandbox, token, now);
	if (!verified.ok) {
		return {
			ok: false,
			status: 401,
			error: 'invalid_token',
			description:
				verified.reason === 'expired'
					? 'The access token has expired'
					: 'The access token is invalid'
		};
	}
	if (await (await sandbox.store()).isRevoked(verified.claims.fam))
		return {
			ok: false,
			status: 401,
			error: 'invalid_token',
			description: 'The access token has been revoked'
		};
	const client = findClient(sandbox.settings, verified.claims.client_id);
	if (!client)
		return {
			ok: false,
			status: 401,
			error: 'invalid_token',
			description: 'The client of this access token is no longer registered'
		};
	return { ok: true, client, claims: verified.claims };
}

function bearerChallenge(fields: Record<string, string> = {}): string {
	return ['Bearer realm="sandbox"', ...Object.entries(fields).map(([k, v]) => `${k}="${v}"`)].join(
		', '
	);
}

/**
 * Handles any request under /sandbox/reader/api/0/. `path` is the part after that prefix. While
 * the store cannot be reached the answer is 503 with the reason: the sandbox cannot tell a revoked
 * token or count a call without it.
 */
export async function readerApi(
	sandbox: Sandbox,
	request: Request,
	url: URL,
	path: string
): Promise<Response> {
	try {
		return await answer(sandbox, request, url, path, sandbox.clock());
	} catch (e) {
		if (!(e instanceof StoreUnavailable)) throw e;
		return apiError(503, 'temporarily_unavailable', `The sandbox cannot answer now: ${e.message}`, {
			'Retry-After': '2'
		});
	}
}

async function answer(
	sandbox: Sandbox,
	request: Request,
	url: URL,
	path: string,
	now: number
): Promise<Response> {
	const { limiter, settings } = sandbox;
	const { limitWindow } = settings;
	const peek = (client?: SandboxClient, ns?: string): Promise<Usage> =>
		limiter.peek(ns, limitsFor(settings, client), limitWindow);

	const token = await lookUpToken(sandbox, request, url, now);
	if (!token.ok) {
		const headers = usageHeaders(await peek());
		const challenge = token.error
			? bearerChallenge({ error: token.error, error_description: token.description })
			: bearerChallenge();
		return jsonResponse(
			token.status,
			{ error: token.error ?? 'unauthorized', error_description: token.description },
			{ ...headers, 'WWW-Authenticate': challenge }
		);
	}
	const { client, claims } = token;
	const ns = namespaceOf(sandbox, claims);

	const found = findEndpoint(path);
	if (!found)
		return apiError(
			404,
			'not_found',
			`There is no API endpoint ${JSON.stringify(path.slice(0, 200))}`,
			usageHeaders(await peek(client, ns))
		);
	const { endpoint, rest } = found;
	const method = request.method === 'HEAD' ? 'GET' : request.method;
	if (method !== endpoint.method) {
		return apiError(405, 'method_not_allowed', `Use ${endpoint.method} for ${found.name}`, {
			...usageHeaders(await peek(client, ns)),
			Allow: endpoint.method === 'GET' ? 'GET, HEAD' : 'POST'
		});
	}
	if (endpoint.zone === 2 && !hasWrite(claims.scope)) {
		return apiError(
			403,
			'insufficient_scope',
			`${found.name} is in zone 2 and needs the "read write" scope; this token has "${claims.scope}"`,
			{
				...usageHeaders(await peek(client, ns)),
				'WWW-Authenticate': bearerChallenge({ error: 'insufficient_scope', scope: 'read write' })
			}
		);
	}

	const params = new URLSearchParams(url.searchParams);
	params.delete('access_token');
	if (method === 'POST' && isFormContentType(request.headers.get('content-type'))) {
		const body = await readBodyCapped(request);
		if (!body.ok)
			return apiError(
				413,
				'invalid_request',
				'The request body is too large',
				usageHeaders(await peek(client, ns))
			);
		for (const [k, v] of new URLSearchParams(body.text)) params.append(k, v);
	}

	const taken = await limiter.take(ns, endpoint.zone, limitsFor(settings, client), limitWindow);
	const headers = usageHeaders(taken.usage);
	if (!taken.allowed) {
		return apiError(
			429,
			'rate_limited',
			`The zone ${endpoint.zone} limit of ${endpoint.zone === 1 ? taken.usage.zone1Limit : taken.usage.zone2Limit} requests per ${limitWindow} seconds is reached`,
			{
				...headers,
				'Retry-After': String(taken.usage.resetAfter)
			}
		);
	}
	return endpoint.handle({ sandbox, client, claims, ns, rest, params, headers });
}
