/**
 * One validated HAR entry (schema.ts) as an Exchange: which OAuth step it is, if any (this
 * playground's own `_step`, or the path each step's spec recognises: the token and consent
 * endpoints, the callback, `/reader/api/0/`, revocation, introspection, metadata), its headers
 * without HTTP/2 pseudo-headers and without cookie values, its body (base64 decoded), its failure
 * (this playground's `_failure`, or Chromium's `_error`) and its timings (`ssl` taken out of
 * `connect`). The findings are not worked out here: the callback keeps those the file carries (its
 * state check can't be redone from a file), every other step starts with none.
 */
import { decodeBase64Utf8, formFields, isFiniteNumber, placeholder } from '../text';
import type {
	Exchange,
	ExchangeResponse,
	Failure,
	FailureKind,
	HeaderList,
	Step,
	Timing
} from '../types';
import { harStep, specOf } from '$lib/steps/registry';
import type { HarInEntry } from './schema';
import { validDate } from './format';

/** What a cookie value becomes on import: cookies may hold someone's session. */
export const NOT_IMPORTED = '<not imported>';

function pathOf(url: string): string | undefined {
	if (!URL.canParse(url)) return undefined;
	return new URL(url).pathname.replace(/\/+$/, '');
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
	const pos = (v: number | undefined) => (isFiniteNumber(v) && v >= 0 ? v : undefined);
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

/**
 * The step of an entry: its own `_step`, else the one its path (and form body) is recognised as by
 * the step specs' rules; undefined when it is not an OAuth request.
 */
export function entryStep(e: HarInEntry): Step | undefined {
	if (e._step !== undefined) return e._step;
	const path = pathOf(e.request.url);
	if (path === undefined) return undefined;
	let form: [string, string][] | undefined;
	return harStep({ path, form: () => (form ??= formFields(entryBody(e))) });
}

/** The entry as an Exchange of the given step and id. */
export function toExchange(e: HarInEntry, step: Step, id: string): Exchange {
	const body = entryBody(e);
	const r = e.response;
	let response: ExchangeResponse | undefined;
	if (r && r.status > 0) {
		// A body the file does not hold is said so, never shown or judged as an empty one.
		const { size } = r.content;
		let text = r.content.text;
		let missing: ExchangeResponse['bodyMissing'];
		if (text === undefined || (text === '' && size !== undefined && size > 0)) {
			// No text and no size of 0: left out (a size below 0 is this playground's own export of
			// such a body, whose size is not known).
			if (size !== 0)
				missing = { why: 'not-recorded', ...(size !== undefined && size > 0 && { size }) };
		} else if (r.content.encoding?.toLowerCase() === 'base64') {
			text = decodeBase64Utf8(text);
			if (text === undefined) missing = { why: 'undecodable' };
		}
		response = {
			status: r.status,
			statusText: r.statusText,
			httpVersion: httpVersionIn(r.httpVersion),
			headers: importHeaders(r.headers, 'set-cookie'),
			body: text ?? '',
			truncated: e._truncated ?? false,
			...(missing && { bodyMissing: missing })
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
		// What came back to the redirect URI keeps its state check: the file's own findings.
		findings: (specOf(step).travels === 'redirect-back' && e._findings) || []
	};
	if (response) ex.response = response;
	if (failure) ex.failure = failure;
	if (e._note) ex.note = e._note;
	if (e._replay) ex.replay = true;
	if (e._redactions?.length) ex.redactions = e._redactions;
	return ex;
}
