/**
 * The sequence diagram's layout, as pure functions of the exchanges: which lanes each arrow joins,
 * its labels, its status, and where everything goes for a given width.
 */
import {
	exchangeNumbers,
	FAILURE_WORDS,
	headerValue,
	statusLine,
	type Exchange
} from '$lib/exchange/types';
import { jsonObject } from '$lib/exchange/text';
import { judgedOk } from '$lib/exchange/judged-ok';
import { specOf, STEP_NAMES, STEPS, type Step } from '$lib/steps/registry';
import type { Travels } from '$lib/steps/spec';
import { exchangeStatus, ofSetup, type ExchangeStatus } from './step-status';
import { frameOf, GEOMETRY, type Lane, type SequenceFrame } from './sequence-frame';

/** An arrow's status: the exchange's own, worked out with the step statuses (step-status.ts). */
export type StatusKind = ExchangeStatus;

/**
 * The step's number as the flow counts them (STEPS); the registration check, which is not a step
 * of the flow, is named instead. A tick is never a number: it marks a good answer only.
 */
export const STEP_NUMBER: Record<Step, string> = Object.fromEntries(
	STEP_NAMES.map((s) => [s, String(STEPS[s].n ?? s)])
) as Record<Step, string>;

/** The mark before an arrow's status: ✓ a good answer, ✕ a failure, ⊘ consent declined. */
const STATUS_MARK: Record<StatusKind, string> = {
	ok: '✓',
	failed: '✕',
	denied: '⊘',
	redirect: '',
	pending: ''
};

/**
 * The lanes an arrow joins, by how its request travels (the step's spec): a navigation is the
 * browser opening the service's page (the consent); the redirect back is the service's redirect
 * landing on the playground's /callback, so it is drawn from the browser to the playground server;
 * every other request is the playground server calling the service.
 */
const LANES_OF: Record<Travels, { from: Lane; to: Lane }> = {
	navigation: { from: 'browser', to: 'service' },
	'redirect-back': { from: 'browser', to: 'playground' },
	server: { from: 'playground', to: 'service' }
};

/** Which lanes an arrow of the step joins. */
export function lanesOf(step: Step): { from: Lane; to: Lane } {
	return { ...LANES_OF[specOf(step).travels] };
}

/** The step's request is what came back to the redirect URI (the callback). */
const isRedirectBack = (ex: Exchange) => specOf(ex.step).travels === 'redirect-back';
/** The step's request is the browser opening the service's page, with no answer recorded (the consent). */
const isNavigation = (ex: Exchange) => specOf(ex.step).travels === 'navigation';

/** A URL's query parameter, or undefined when the URL does not parse. */
function param(url: string, name: string, base?: string): string | undefined {
	return URL.canParse(url, base)
		? (new URL(url, base).searchParams.get(name) ?? undefined)
		: undefined;
}

/**
 * The OAuth `error` a redirect carries: on the callback, in its own address (the service's redirect
 * to it); on any other step, in the Location of a 3xx answer. What the redirect means is its error,
 * not its status code.
 */
function redirectError(ex: Exchange): string | undefined {
	if (isRedirectBack(ex)) return param(ex.request.url, 'error');
	const res = ex.response;
	if (!res || res.status < 300 || res.status >= 400) return undefined;
	const location = headerValue(res.headers, 'Location');
	return location === undefined ? undefined : param(location, 'error', ex.request.url);
}

/** An OAuth error code: lower-case words joined by underscores ("invalid_client"). */
const OAUTH_ERROR = /^[a-z]+(?:_[a-z]+)+$/;

/**
 * What a failed answer means, by its OAuth error: the `error` of its JSON body ("invalid_client",
 * "invalid_grant"), else the first error finding that names one (a refused redirect URI read from
 * an error page, "redirect_uri_mismatch"); none when it names none, and its status says it.
 */
function answerError(ex: Exchange): string | undefined {
	const body = ex.response && jsonObject(ex.response.body);
	if (typeof body?.error === 'string' && OAUTH_ERROR.test(body.error)) return body.error;
	return ex.findings.find((f) => f.level === 'error' && OAUTH_ERROR.test(f.code))?.code;
}

/** A callback that brought a code and was taken: the success it is, whatever its 303 says. */
const bringsCode = (ex: Exchange) =>
	isRedirectBack(ex) && !!param(ex.request.url, 'code') && exchangeStatus(ex) === 'redirect';

/**
 * The arrow's status: the step cards' (step-status.ts `exchangeStatus`), except that a callback
 * that brought a code is drawn as the success it is, not as a neutral redirect.
 */
export function statusKind(ex: Exchange): StatusKind {
	return bringsCode(ex) ? 'ok' : exchangeStatus(ex);
}

/**
 * Short status: "200", "403", "timeout", "navigates", "access_denied", "invalid_scope",
 * "invalid_client", "code".
 */
export function statusCode(ex: Exchange): string {
	if (ex.failure) return ex.failure.kind;
	const kind = statusKind(ex);
	const error = redirectError(ex) ?? (kind === 'failed' ? answerError(ex) : undefined);
	if ((kind === 'denied' || kind === 'failed') && error) return error;
	if (bringsCode(ex)) return 'code';
	if (kind === 'ok' && judgedOk(ex)) return 'accepted';
	if (ex.response) return String(ex.response.status);
	return isNavigation(ex) ? 'navigates' : 'no answer';
}

/**
 * Long status: "200 OK", "403 Forbidden", "timed out", "the browser navigates"; a failure by what
 * it means ("invalid_client", "plain HTTP on this port"), a redirect by what it carries:
 * "access_denied", "invalid_scope", "code received".
 */
function statusPhrase(ex: Exchange): string {
	if (ex.failure) return FAILURE_WORDS[ex.failure.kind] ?? ex.failure.kind;
	const kind = statusKind(ex);
	const error = redirectError(ex) ?? (kind === 'failed' ? answerError(ex) : undefined);
	if ((kind === 'denied' || kind === 'failed') && error) return error;
	if (bringsCode(ex)) return 'code received';
	const ok = kind === 'ok' ? judgedOk(ex) : undefined;
	if (ok) return ok;
	if (ex.response) return statusLine(ex.response);
	return isNavigation(ex) ? 'the browser navigates' : 'no answer';
}

function pathname(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return url.split(/[?#]/)[0] ?? url;
	}
}

const API_PREFIX = '/reader/api/0/';

/**
 * The path, shortened: token and consent endpoints from "/oauth2/", API calls below
 * "/reader/api/0/" as "…/user-info", anything longer than `max` cut from the left.
 */
export function shortPath(url: string, max = 28): string {
	let p = pathname(url);
	const api = p.indexOf(API_PREFIX);
	const oauth = p.indexOf('/oauth2/');
	if (api >= 0) p = '…/' + p.slice(api + API_PREFIX.length);
	else if (oauth >= 0) p = p.slice(oauth);
	if (p.length > max) {
		// Keep the end; start it at a slash when one is left, so no segment is cut in two.
		const tail = p.slice(p.length - (max - 1));
		const slash = tail.indexOf('/');
		p = '…' + (slash >= 0 ? tail.slice(slash) : tail);
	}
	return p;
}

interface Fitted {
	n: string;
	method: string;
	/** The path as shown, '' when there was no room for it. */
	path: string;
	status: string;
	kind: StatusKind;
}

/**
 * The parts of an arrow's labels, fitted to `maxChars` characters per line: path cut to its last
 * segments first, then dropped. `number` is the exchange's running number ("#4", in sending order,
 * as the transcript and the step cards show it); without one, the step's.
 */
function fit(ex: Exchange, maxChars: number, number?: number): Fitted {
	const n = number === undefined ? STEP_NUMBER[ex.step] : `#${number}`;
	const method = ex.request.method;
	const kind = statusKind(ex);
	const head = `${n} ${method}`;
	let path = shortPath(ex.request.url);
	if (head.length + 1 + path.length > maxChars) {
		// A path cut to its last whole segments ("…/token"), or none at all: never half a word.
		const cut = shortPath(ex.request.url, Math.max(maxChars - head.length - 1, 1));
		path = cut.startsWith('…/') && cut.length > 2 ? cut : '';
	}
	const mark = STATUS_MARK[kind] ? 2 : 0;
	let status = statusPhrase(ex);
	if (status.length + mark > maxChars) status = statusCode(ex);
	return { n, method, path, status, kind };
}

/**
 * The two text lines of an arrow: "#3 POST /oauth2/token" above, the status below with its mark:
 * "✓ 200 OK", "✕ 403 Forbidden", "⊘ 303 consent declined"; a redirect or a navigation has none.
 */
export function arrowLabels(
	ex: Exchange,
	maxChars = Infinity,
	number?: number
): { main: string; status: string } {
	const f = fit(ex, maxChars, number);
	const mark = STATUS_MARK[f.kind];
	return {
		main: [f.n, f.method, f.path].filter(Boolean).join(' '),
		status: (mark ? `${mark} ` : '') + f.status
	};
}

/**
 * The arrow's accessible name, e.g. "#4 POST /oauth2/token, 200 OK (refresh, step 5)", or without a
 * running number "Step 3, POST /oauth2/token, 200 OK (code exchange)". It holds the words shown on
 * the arrow, in the same order (WCAG 2.5.3, label in name), then in brackets the step's name (and
 * number), the path when it was shortened, whether it failed or consent was declined, whether it
 * was made with an earlier setup, and whether it is the current step.
 */
export function arrowAriaLabel(
	ex: Exchange,
	current?: string,
	maxChars = Infinity,
	stale = false,
	number?: number
): string {
	const f = fit(ex, maxChars, number);
	const numbered = /^\d+$/.test(f.n);
	const name = STEPS[ex.step].name;
	const request = [f.method, f.path].filter(Boolean).join(' ');
	const step = STEPS[ex.step].n;
	const head =
		number !== undefined
			? `${f.n} ${request}`
			: numbered
				? `Step ${f.n}, ${request}`
				: // The short name shown on the arrow ("par") is in the accessible name too, before the request (WCAG 2.5.3).
					name.includes(f.n)
					? `${name.charAt(0).toUpperCase()}${name.slice(1)}: ${request}`
					: `${name.charAt(0).toUpperCase()}${name.slice(1)}, ${f.n} ${request}`;
	const extra: string[] =
		number !== undefined
			? [step === undefined ? name : `${name}, step ${step}`]
			: numbered
				? [name]
				: [];
	const full = shortPath(ex.request.url, Infinity);
	if (f.path !== full) extra.push(full);
	if (f.kind === 'failed') extra.push('failed');
	if (f.kind === 'denied') extra.push('consent declined');
	if (stale) extra.push('an earlier setup');
	if (current !== undefined && ex.step === current) extra.push('current step');
	return `${head}, ${f.status}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

interface ArrowRow {
	id: string;
	step: Step;
	kind: StatusKind;
	selected: boolean;
	current: boolean;
	/** Made with an earlier setup: drawn faded, and never the current step's. */
	stale: boolean;
	/** Top of the row. */
	y: number;
	/** Where the line and the label sit. */
	arrowY: number;
	labelY: number;
	statusY: number;
	x1: number;
	x2: number;
	/** The line stops short of x2 so that the head ends exactly there. */
	lineEnd: number;
	/** The arrow head's three points, "x,y x,y x,y". */
	head: string;
	labelX: number;
	main: string;
	status: string;
	ariaLabel: string;
	/** Tooltip: method and URL without its query. */
	title: string;
}

export interface SequenceLayout extends SequenceFrame {
	rows: ArrowRow[];
	rowX: number;
	rowWidth: number;
	rowHeight: number;
}

const HEAD = 9;

export function layoutSequence(
	exchanges: Exchange[],
	opts: {
		width?: number;
		selectedId?: string;
		current?: string;
		/** The current setup's id: arrows of other setups are marked as earlier (undefined: none are). */
		setupId?: string | null;
	} = {}
): SequenceLayout {
	const g = GEOMETRY;
	const frame = frameOf(opts.width, exchanges.length);
	const { width, lanes } = frame;
	const xOf = (lane: Lane) => lanes.find((l) => l.id === lane)!.x;
	let compact = frame.compact;
	const numbers = exchangeNumbers(exchanges);
	const rows: ArrowRow[] = exchanges.map((ex, i) => {
		const number = numbers.get(ex.id);
		const { from, to } = lanesOf(ex.step);
		const x1 = xOf(from);
		const x2 = xOf(to);
		const d = Math.sign(x2 - x1) || 1;
		const y = g.firstRow + i * g.rowHeight;
		const arrowY = y + 27;
		const maxChars = Math.floor((Math.abs(x2 - x1) - 12) / g.labelChar);
		const labels = arrowLabels(ex, maxChars, number);
		const full = arrowLabels(ex, Infinity, number);
		if (labels.main !== full.main || labels.status !== full.status) compact = true;
		const lineEnd = x2 - d * HEAD;
		const stale = opts.setupId !== undefined && !ofSetup(ex, opts.setupId);
		const current = !stale ? opts.current : undefined;
		return {
			id: ex.id,
			step: ex.step,
			kind: statusKind(ex),
			selected: opts.selectedId !== undefined && ex.id === opts.selectedId,
			current: current !== undefined && ex.step === current,
			stale,
			y,
			arrowY,
			labelY: y + 19,
			statusY: y + 44,
			x1,
			x2,
			lineEnd,
			head: `${x2},${arrowY} ${lineEnd},${arrowY - 5} ${lineEnd},${arrowY + 5}`,
			labelX: (x1 + x2) / 2,
			main: labels.main,
			status: labels.status,
			ariaLabel: arrowAriaLabel(ex, current, maxChars, stale, number),
			title: `${ex.request.method} ${ex.request.url.split('?')[0]} → ${statusPhrase(ex)}`
		};
	});
	return {
		...frame,
		compact,
		rows,
		rowX: g.pad / 2,
		rowWidth: width - g.pad,
		rowHeight: g.rowHeight
	};
}
