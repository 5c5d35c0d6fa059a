/**
 * HAR 1.2 export of the transcript (`toHar`): one entry per Exchange, in transcript order. What HAR
 * has no field for travels in custom fields: `_id`, `_step`, `_findings`, `_failure`, `_note`,
 * `_redactions`, `_truncated`, `_replay` (a request sent again on purpose, from a fork). An exchange without a response (the consent redirect, which the
 * browser makes, or a failure) gets `response.status: 0`, as Chromium's own HAR export does for
 * failed requests. Timings: `ssl` is also counted in `connect` (the spec's rule, kept for HAR 1.1
 * readers), so `time` is the sum of the non-negative blocked, dns, connect, send, wait and receive.
 * Unknown phases are -1; `send` is not measured and is 0.
 *
 * The export runs the secret scrub of redact.ts again and shortens tokens unless asked not to
 * (docs/security.md, "What the browser may see").
 */
import { prepareForExport } from '../redact';
import { formFields, isFormBody, queryFields, utf8Length } from '../text';
import { headerValue, type Exchange, type HeaderList, type Timing } from '../types';
import {
	HAR_CREATOR,
	validDate,
	type Har,
	type HarCookie,
	type HarEntry,
	type HarPostData,
	type HarRequest,
	type HarResponse,
	type HarTimings
} from './format';

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
	Number.isFinite(ms) ? Math.max(0, Math.round(ms! * 1000)) : undefined;

export function harTimings(t: Timing): { time: number; timings: HarTimings } {
	const dns = us(t.dns);
	const tls = us(t.tls);
	const connect = us(t.connect) !== undefined ? us(t.connect)! + (tls ?? 0) : tls;
	const total = us(t.total) ?? 0;
	// Waiting for one of the playground's own connections: HAR's `blocked`, before the connection.
	const blocked = us(t.queued);
	const setup = (blocked ?? 0) + (dns ?? 0) + (connect ?? 0);
	const firstByte = us(t.firstByte) ?? total;
	const wait = Math.max(0, firstByte - setup);
	const receive = Math.max(0, total - firstByte);
	const ms = (v: number | undefined) => (v === undefined ? -1 : v / 1000);
	const timings: HarTimings = {
		blocked: ms(blocked),
		dns: ms(dns),
		connect: ms(connect),
		ssl: ms(tls),
		send: 0,
		wait: wait / 1000,
		receive: receive / 1000
	};
	return { time: (setup + wait + receive) / 1000, timings };
}

function bodySize(headers: HeaderList, body: string): number {
	const cl = headerValue(headers, 'Content-Length');
	// Number() reads digits with white space around them as the digits alone.
	return /^\s*\d{1,15}\s*$/.test(cl ?? '') ? Number(cl) : utf8Length(body);
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
				content: res.bodyMissing
					? {
							// Not in the file it was imported from: still not here, and said so.
							size: res.bodyMissing.size ?? -1,
							mimeType: headerValue(res.headers, 'Content-Type') ?? 'x-unknown',
							comment: 'The body was not in the file this exchange was imported from.'
						}
					: {
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
	if (ex.replay) entry._replay = true;
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
