/**
 * HAR 1.2 export and import of the transcript (http://www.softwareishard.com/blog/har-12-spec/).
 *
 * Export (`toHar`): one entry per Exchange, in transcript order. What HAR has no field for travels in
 * custom fields with a leading underscore, as the spec allows: `_id`, `_step`, `_findings`,
 * `_failure`, `_note`, `_redactions`, `_truncated`. An exchange without a response (the consent
 * redirect, which the browser makes, or a failure) gets `response.status: 0`, as Chromium's own HAR
 * export does for failed requests. Timings: `ssl` is also counted in `connect` (the spec's rule, kept
 * for HAR 1.1 readers), so `time` is the sum of the non-negative blocked, dns, connect, send, wait and
 * receive. Unknown phases are -1; `send` is not measured and is 0.
 *
 * Import (`fromHar`): a HAR from this playground or a browser's Network export. Only OAuth entries are
 * kept (the token and consent endpoints, the callback, `/reader/api/0/`, or anything with `_step`).
 * HTTP/2 pseudo-headers are dropped, base64 bodies decoded, cookie values replaced, any client secret
 * redacted, and the findings recomputed with `diagnose()`. Hostile input gives `{ ok: false }`; it
 * never throws.
 *
 * Both directions run the secret scrub of scrub.ts, and the exports shorten tokens unless asked not to
 * (design.md, "What the browser may see").
 */
import { z } from 'zod';
import { diagnose, diagnoseCallback, type DiagnoseContext } from '$lib/oauth/diagnose';
import { explainAuthorizationError } from '$lib/oauth/consent';
import {
	decodeBase64Utf8,
	formFields,
	isFormBody,
	parseJson,
	placeholder,
	queryFields,
	splitUrl,
	utf8Length
} from './text';
import { prepareForExport, scrubSecrets } from './redact';
import {
	headerValue,
	type Exchange,
	type ExchangeResponse,
	type Failure,
	type FailureKind,
	type Finding,
	type HeaderList,
	type Redaction,
	type Step,
	type Timing
} from './types';

export const HAR_CREATOR = 'feed-reader-oauth-playground';
export const DEFAULT_MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** What a cookie value becomes on import: cookies may hold someone's session. */
export const NOT_IMPORTED = '<not imported>';

// ---------------------------------------------------------------------------------------------
// HAR 1.2 types (the parts this module writes)

export interface HarNameValue {
	name: string;
	value: string;
}

export interface HarCookie {
	name: string;
	value: string;
	path?: string;
	domain?: string;
	expires?: string;
	httpOnly?: boolean;
	secure?: boolean;
}

export interface HarPostData {
	mimeType: string;
	text: string;
	params?: HarNameValue[];
}

export interface HarRequest {
	method: string;
	url: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	queryString: HarNameValue[];
	postData?: HarPostData;
	headersSize: number;
	bodySize: number;
}

export interface HarContent {
	size: number;
	mimeType: string;
	text?: string;
	encoding?: string;
}

export interface HarResponse {
	status: number;
	statusText: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	content: HarContent;
	redirectURL: string;
	headersSize: number;
	bodySize: number;
}

export interface HarTimings {
	blocked: number;
	dns: number;
	connect: number;
	ssl: number;
	send: number;
	wait: number;
	receive: number;
}

export interface HarEntry {
	startedDateTime: string;
	time: number;
	request: HarRequest;
	response: HarResponse;
	cache: Record<string, never>;
	timings: HarTimings;
	_id: string;
	_step: Step;
	_findings: Finding[];
	_failure?: Failure;
	_note?: string;
	_redactions?: Redaction[];
	_truncated?: boolean;
}

export interface Har {
	log: {
		version: '1.2';
		creator: { name: string; version: string };
		entries: HarEntry[];
	};
}

// ---------------------------------------------------------------------------------------------
// Export

function harHttpVersion(v: string): string {
	if (!v) return 'HTTP/1.1';
	return /^http\//i.test(v) ? v.toUpperCase() : `HTTP/${v}`;
}

function requestCookies(headers: HeaderList): HarCookie[] {
	const out: HarCookie[] = [];
	for (const [n, v] of headers) {
		if (n.toLowerCase() !== 'cookie') continue;
		for (const part of v.split(';')) {
			const i = part.indexOf('=');
			if (i > 0) out.push({ name: part.slice(0, i).trim(), value: part.slice(i + 1).trim() });
		}
	}
	return out;
}

function responseCookies(headers: HeaderList): HarCookie[] {
	const out: HarCookie[] = [];
	for (const [n, v] of headers) {
		if (n.toLowerCase() !== 'set-cookie') continue;
		const [first = '', ...attrs] = v.split(';');
		const i = first.indexOf('=');
		if (i <= 0) continue;
		const cookie: HarCookie = { name: first.slice(0, i).trim(), value: first.slice(i + 1).trim() };
		for (const attr of attrs) {
			const [k = '', ...rest] = attr.split('=');
			const val = rest.join('=').trim();
			switch (k.trim().toLowerCase()) {
				case 'path':
					cookie.path = val;
					break;
				case 'domain':
					cookie.domain = val;
					break;
				case 'expires': {
					const t = Date.parse(val);
					if (!Number.isNaN(t)) cookie.expires = new Date(t).toISOString();
					break;
				}
				case 'httponly':
					cookie.httpOnly = true;
					break;
				case 'secure':
					cookie.secure = true;
					break;
			}
		}
		out.push(cookie);
	}
	return out;
}

function postDataOf(body: string, headers: HeaderList): HarPostData {
	const mimeType = headerValue(headers, 'Content-Type') ?? '';
	const data: HarPostData = { mimeType, text: body };
	if (isFormBody(headers, body))
		data.params = formFields(body).map(([name, value]) => ({ name, value }));
	return data;
}

/** Milliseconds as integer microseconds, so that sums are exact. */
const us = (ms: number | undefined) =>
	ms === undefined || !Number.isFinite(ms) ? undefined : Math.max(0, Math.round(ms * 1000));

export function harTimings(t: Timing): { time: number; timings: HarTimings } {
	const dns = us(t.dns);
	const tls = us(t.tls);
	const connect = us(t.connect) !== undefined ? us(t.connect)! + (tls ?? 0) : tls;
	const total = us(t.total) ?? 0;
	const setup = (dns ?? 0) + (connect ?? 0);
	const firstByte = us(t.firstByte) ?? total;
	const wait = Math.max(0, firstByte - setup);
	const receive = Math.max(0, total - firstByte);
	const ms = (v: number | undefined) => (v === undefined ? -1 : v / 1000);
	const timings: HarTimings = {
		blocked: -1,
		dns: ms(dns),
		connect: ms(connect),
		ssl: ms(tls),
		send: 0,
		wait: wait / 1000,
		receive: receive / 1000
	};
	return { time: (setup + wait + receive) / 1000, timings };
}

function validDate(s: string): string {
	const t = Date.parse(s);
	return Number.isNaN(t) ? new Date(0).toISOString() : new Date(t).toISOString();
}

function bodySize(headers: HeaderList, body: string): number {
	const cl = headerValue(headers, 'Content-Length');
	return cl !== undefined && /^\d{1,15}$/.test(cl.trim()) ? Number(cl.trim()) : utf8Length(body);
}

function toEntry(ex: Exchange): HarEntry {
	const req = ex.request;
	const request: HarRequest = {
		method: req.method,
		url: req.url,
		httpVersion: harHttpVersion(req.httpVersion),
		cookies: requestCookies(req.headers),
		headers: req.headers.map(([name, value]) => ({ name, value })),
		queryString: queryFields(req.url).map(([name, value]) => ({ name, value })),
		headersSize: -1,
		// The true sent size: Content-Length keeps it, also when the body shows a redaction.
		bodySize: bodySize(req.headers, req.body)
	};
	if (req.body) request.postData = postDataOf(req.body, req.headers);
	const res = ex.response;
	const response: HarResponse = res
		? {
				status: res.status,
				statusText: res.statusText,
				httpVersion: harHttpVersion(res.httpVersion),
				cookies: responseCookies(res.headers),
				headers: res.headers.map(([name, value]) => ({ name, value })),
				content: {
					size: utf8Length(res.body),
					mimeType: headerValue(res.headers, 'Content-Type') ?? 'x-unknown',
					text: res.body
				},
				redirectURL: headerValue(res.headers, 'Location') ?? '',
				headersSize: -1,
				// As received: Content-Length, also when the body shown differs from it (tokens shortened);
				// a cut body counts only what arrived.
				bodySize: res.truncated ? utf8Length(res.body) : bodySize(res.headers, res.body)
			}
		: {
				status: 0,
				statusText: '',
				httpVersion: '',
				cookies: [],
				headers: [],
				content: { size: 0, mimeType: 'x-unknown' },
				redirectURL: '',
				headersSize: -1,
				bodySize: -1
			};
	const { time, timings } = harTimings(ex.timing);
	const entry: HarEntry = {
		startedDateTime: validDate(ex.startedAt),
		time,
		request,
		response,
		cache: {},
		timings,
		_id: ex.id,
		_step: ex.step,
		_findings: ex.findings
	};
	if (ex.failure) entry._failure = ex.failure;
	if (ex.note) entry._note = ex.note;
	if (ex.redactions?.length) entry._redactions = ex.redactions;
	if (res?.truncated) entry._truncated = true;
	return entry;
}

export interface HarOptions {
	/** Leave access and refresh tokens in full. Default: shortened to their first and last 4 characters. */
	includeTokens?: boolean;
	creatorVersion?: string;
}

export function toHar(exchanges: Exchange[], opts: HarOptions = {}): Har {
	return {
		log: {
			version: '1.2',
			creator: { name: HAR_CREATOR, version: opts.creatorVersion ?? '0.1.0' },
			entries: prepareForExport(exchanges, opts.includeTokens).map(toEntry)
		}
	};
}

// ---------------------------------------------------------------------------------------------
// Import

const STEPS = [
	'consent',
	'callback',
	'exchange',
	'refresh',
	'userinfo',
	'api',
	'check'
] as const satisfies readonly Step[];
const FAILURE_KINDS = [
	'refused',
	'timeout',
	'dns',
	'tls',
	'too-large',
	'blocked',
	'reset',
	'cancelled',
	'network'
] as const satisfies readonly FailureKind[];

/** An array whose malformed items are dropped, instead of failing the whole entry. */
function listOf<T extends z.ZodType>(item: T) {
	return z
		.array(z.unknown())
		.catch([])
		.transform((items) =>
			items.flatMap((x) => {
				const r = item.safeParse(x);
				return r.success ? [r.data as z.output<T>] : [];
			})
		);
}

const str = (max = 20_000_000) => z.string().max(max);
const optStr = (max = 20_000_000) => z.string().max(max).optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const nameValue = z.object({ name: str(10_000), value: z.string().catch('') });

const findingSchema = z.object({
	level: z.enum(['error', 'warning', 'info']),
	code: str(200),
	message: str(10_000),
	fix: optStr(10_000),
	ref: optStr(1_000)
});

const entrySchema = z.object({
	startedDateTime: z.string().max(100).catch(''),
	time: z.number().catch(-1),
	request: z.object({
		method: str(32),
		url: str(),
		httpVersion: z.string().max(32).catch(''),
		headers: listOf(nameValue),
		postData: z
			.object({ mimeType: z.string().catch(''), text: optStr(), params: listOf(nameValue) })
			.optional()
			.catch(undefined)
	}),
	response: z
		.object({
			status: z.number().int().catch(0),
			statusText: z.string().max(1_000).catch(''),
			httpVersion: z.string().max(32).catch(''),
			headers: listOf(nameValue),
			content: z.object({ text: optStr(), encoding: optStr(100) }).catch({}),
			_error: optStr(10_000)
		})
		.optional()
		.catch(undefined),
	timings: z
		.object({
			blocked: optNum,
			dns: optNum,
			connect: optNum,
			ssl: optNum,
			send: optNum,
			wait: optNum,
			receive: optNum
		})
		.catch({}),
	_id: optStr(200),
	_step: z.enum(STEPS).optional().catch(undefined),
	_findings: listOf(findingSchema).optional(),
	_failure: z
		.object({ kind: z.enum(FAILURE_KINDS).catch('network'), message: str(10_000) })
		.optional()
		.catch(undefined),
	_note: optStr(10_000),
	_redactions: listOf(z.object({ what: str(1_000), length: z.number().int().min(0) })).optional(),
	_truncated: z.boolean().optional().catch(undefined)
});

type HarInEntry = z.output<typeof entrySchema>;

const harSchema = z.object({
	log: z.object({
		version: z.unknown().optional(),
		creator: z
			.object({ name: z.string().catch('') })
			.optional()
			.catch(undefined),
		entries: z.array(z.unknown())
	})
});

export type ImportResult =
	| { ok: true; exchanges: Exchange[]; skipped: number; source: 'playground' | 'browser' }
	| { ok: false; message: string };

const MiB = 1024 * 1024;
function size(bytes: number, round: (n: number) => number): string {
	if (bytes >= MiB / 10) return `${round((bytes / MiB) * 10) / 10} MB`;
	if (bytes >= 1024) return `${round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

function pathOf(url: string): string | undefined {
	if (!URL.canParse(url)) return undefined;
	return new URL(url).pathname.replace(/\/+$/, '');
}

/** The step of an entry from its path; undefined when it is not an OAuth request. */
function stepFromPath(path: string, body: string): Step | undefined {
	if (path.endsWith('/oauth2/auth')) return 'consent';
	if (path.endsWith('/oauth2/token'))
		return formFields(body).some(([n, v]) => n === 'grant_type' && v === 'refresh_token')
			? 'refresh'
			: 'exchange';
	if (path.endsWith('/callback')) return 'callback';
	if (path.includes('/reader/api/0/'))
		return path.endsWith('/reader/api/0/user-info') ? 'userinfo' : 'api';
	return undefined;
}

function httpVersionIn(v: string): string {
	const t = v.trim().toLowerCase();
	if (!t) return '1.1';
	if (t === 'h2' || t === 'h2c') return '2';
	if (t === 'h3' || t.startsWith('h3-')) return '3';
	return t.replace(/^http\//, '').toUpperCase();
}

function importHeaders(list: { name: string; value: string }[], cookieHeader: string): HeaderList {
	return list
		.filter((h) => h.name && !h.name.startsWith(':'))
		.map((h) => [
			h.name,
			h.name.toLowerCase() === cookieHeader && !placeholder(h.value) ? NOT_IMPORTED : h.value
		]);
}

/** Chromium's `_error` on a failed request (e.g. net::ERR_CONNECTION_REFUSED) as a failure kind. */
function chromiumFailure(error: string): Failure {
	const e = error.toUpperCase();
	const kind: FailureKind = e.includes('CONNECTION_REFUSED')
		? 'refused'
		: e.includes('NAME_NOT_RESOLVED') || e.includes('NAME_RESOLUTION')
			? 'dns'
			: e.includes('TIMED_OUT')
				? 'timeout'
				: e.includes('CERT') || e.includes('SSL')
					? 'tls'
					: e.includes('CONNECTION_RESET') ||
						  e.includes('CONNECTION_CLOSED') ||
						  e.includes('EMPTY_RESPONSE')
						? 'reset'
						: e.includes('ABORTED')
							? 'cancelled'
							: e.includes('BLOCKED')
								? 'blocked'
								: 'network';
	return { kind, message: `The browser recorded this request as failed: ${error}` };
}

function importTiming(e: HarInEntry, hasResponse: boolean): Timing {
	const t = e.timings;
	const pos = (v: number | undefined) =>
		v !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined;
	const r = (v: number) => Math.round(v * 1000) / 1000;
	const dns = pos(t.dns);
	const ssl = pos(t.ssl);
	const connect =
		pos(t.connect) !== undefined ? Math.max(0, pos(t.connect)! - (ssl ?? 0)) : undefined;
	const sum = [t.blocked, t.dns, t.connect, t.send, t.wait].reduce<number>(
		(a, v) => a + (pos(v) ?? 0),
		0
	);
	const timing: Timing = { total: r(pos(e.time) ?? sum + (pos(t.receive) ?? 0)) };
	if (dns !== undefined) timing.dns = r(dns);
	if (connect !== undefined) timing.connect = r(connect);
	if (ssl !== undefined) timing.tls = r(ssl);
	if (hasResponse) timing.firstByte = r(sum);
	return timing;
}

function entryBody(e: HarInEntry): string {
	const pd = e.request.postData;
	if (!pd) return '';
	if (pd.text !== undefined) return pd.text;
	return pd.params.length
		? new URLSearchParams(pd.params.map((p) => [p.name, p.value])).toString()
		: '';
}

function importEntry(e: HarInEntry, step: Step, id: string): Exchange {
	const body = entryBody(e);
	const r = e.response;
	let response: ExchangeResponse | undefined;
	if (r && r.status > 0) {
		let text = r.content.text ?? '';
		if (r.content.encoding?.toLowerCase() === 'base64') text = decodeBase64Utf8(text) ?? '';
		response = {
			status: r.status,
			statusText: r.statusText,
			httpVersion: httpVersionIn(r.httpVersion),
			headers: importHeaders(r.headers, 'set-cookie'),
			body: text,
			truncated: e._truncated ?? false
		};
	}
	const failure = e._failure ?? (r?._error && !response ? chromiumFailure(r._error) : undefined);
	const ex: Exchange = {
		id,
		step,
		startedAt: validDate(e.startedDateTime),
		request: {
			method: e.request.method,
			url: e.request.url,
			httpVersion: httpVersionIn(e.request.httpVersion),
			headers: importHeaders(e.request.headers, 'cookie'),
			body
		},
		timing: importTiming(e, !!response),
		findings: []
	};
	if (response) ex.response = response;
	if (failure) ex.failure = failure;
	if (e._note) ex.note = e._note;
	if (e._redactions?.length) ex.redactions = e._redactions;
	return ex;
}

/** The redirect back can't be re-checked from a file (the saved state is not in it); its error can be read. */
function callbackFindings(ex: Exchange, carried: Finding[] | undefined): Finding[] {
	if (carried?.length) return carried;
	const params = new URLSearchParams(splitUrl(ex.request.url).query ?? '');
	const error = params.get('error');
	if (error === null) return [];
	const findings = diagnoseCallback('error', error, params.get('error_description') ?? undefined);
	findings[0]!.fix = explainAuthorizationError(error);
	return findings;
}

/** Findings recomputed in transcript order, with the context the live flow had: the scope asked for, the token expiry. */
function rediagnose(exchanges: Exchange[], carried: (Finding[] | undefined)[]): Exchange[] {
	let requestedScope: string | undefined;
	let tokenExpiresAt: number | undefined;
	return exchanges.map((ex, i) => {
		if (ex.step === 'consent') {
			const scope = queryFields(ex.request.url).find(([n]) => n === 'scope');
			if (scope) requestedScope = scope[1];
		}
		const ctx: DiagnoseContext = { requestedScope, tokenExpiresAt };
		const findings = ex.step === 'callback' ? callbackFindings(ex, carried[i]) : diagnose(ex, ctx);
		const res = ex.response;
		if (
			(ex.step === 'exchange' || ex.step === 'refresh') &&
			res &&
			res.status >= 200 &&
			res.status < 300
		) {
			const body = parseJson(res.body) as Record<string, unknown> | undefined;
			if (body && typeof body === 'object' && typeof body.access_token === 'string') {
				const expiresIn = body.expires_in;
				tokenExpiresAt =
					typeof expiresIn === 'number' && Number.isFinite(expiresIn)
						? Date.parse(ex.startedAt) + ex.timing.total + expiresIn * 1000
						: undefined;
			}
		}
		return { ...ex, findings };
	});
}

export interface ImportOptions {
	/** Largest file accepted, in bytes. Default 5 MiB. */
	maxBytes?: number;
}

/** Reads a HAR file's text into Exchanges. Never throws. */
export function fromHar(text: string, opts: ImportOptions = {}): ImportResult {
	try {
		return importHar(text, opts);
	} catch (err) {
		return {
			ok: false,
			message: `This file could not be read as a HAR: ${err instanceof Error ? err.message : String(err)}`
		};
	}
}

function importHar(text: string, opts: ImportOptions): ImportResult {
	if (typeof text !== 'string') return { ok: false, message: 'There is no file text to import.' };
	const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
	const bytes = utf8Length(text);
	if (bytes > maxBytes)
		return {
			ok: false,
			message: `The file is ${size(bytes, Math.ceil)}; the import takes at most ${size(maxBytes, Math.floor)}.`
		};
	let json: unknown;
	try {
		json = JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch (err) {
		return {
			ok: false,
			message: `This file is not JSON: ${err instanceof Error ? err.message : String(err)}`
		};
	}
	const har = harSchema.safeParse(json);
	if (!har.success)
		return {
			ok: false,
			message:
				'This file is JSON, but not a HAR: it has no log.entries list. Save it from the browser’s Network panel with “Save all as HAR”, or export it from the playground.'
		};
	const { version, creator, entries } = har.data.log;
	if (version !== undefined && version !== '1.2' && version !== '1.1')
		return {
			ok: false,
			message: `This HAR is version ${JSON.stringify(version).slice(0, 40)}; the import reads HAR 1.2 (and 1.1).`
		};
	const source = creator?.name === HAR_CREATOR ? 'playground' : 'browser';

	const picked: Exchange[] = [];
	const carried: (Finding[] | undefined)[] = [];
	const ids = new Set<string>();
	let skipped = 0;
	entries.forEach((raw, index) => {
		const parsed = entrySchema.safeParse(raw);
		if (!parsed.success) {
			skipped++;
			return;
		}
		const e = parsed.data;
		const path = pathOf(e.request.url);
		const fromPath = path === undefined ? undefined : stepFromPath(path, entryBody(e));
		const step = e._step ?? fromPath;
		if (!step) {
			skipped++;
			return;
		}
		let id = e._id || `har-${index + 1}`;
		if (ids.has(id)) id = `${id}-${index + 1}`;
		ids.add(id);
		picked.push(scrubSecrets(importEntry(e, step, id)));
		carried.push(step === 'callback' ? e._findings : undefined);
	});
	if (picked.length === 0) {
		const n = entries.length;
		return {
			ok: false,
			message:
				n === 0
					? 'This HAR has no requests in it.'
					: `This HAR has ${n} request${n === 1 ? '' : 's'}, none of them to /oauth2/ or /reader/api/0/. Record the flow with the Network panel open (tick “Preserve log”), then save again.`
		};
	}
	return { ok: true, exchanges: rediagnose(picked, carried), skipped, source };
}
