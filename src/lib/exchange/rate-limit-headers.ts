/**
 * An answer's rate-limit headers, read into meters: how much of a budget is used or left, and when
 * it resets. The shapes read, each only when every one of its headers present is well formed (a
 * shape it does not know, or a value out of it, draws no meter: the headers still show as received):
 *
 * - the service's own (the service's API docs): `X-Reader-Zone1-Usage`, `-Limit`, the same for
 *   zone 2, and `X-Reader-Limits-Reset-After` in seconds; zone 1 reads, zone 2 writes (§5 step 7);
 * - the IETF fields, draft-ietf-httpapi-ratelimit-headers-11: `RateLimit` (§4: per policy, `r`
 *   left, `t` seconds to go) and `RateLimit-Policy` (§3: per policy, the quota `q`, its unit `qu`
 *   and window `w`), Structured Field Lists (RFC 9651);
 * - the older drafts' triple (up to -06): `RateLimit-Limit`, `RateLimit-Remaining` and
 *   `RateLimit-Reset` in seconds;
 * - `X-RateLimit-Limit`, `-Remaining`, `-Reset` and GitHub's `-Used` and `-Resource`, and Feedly's
 *   `X-Ratelimit-Count` (calls made; with no limit, only "used" can be said);
 * - `Retry-After` (RFC 9110 §10.2.3): seconds, or an HTTP date.
 *
 * A reset in seconds counts from the answer. A reset of 1,000,000,000 or more is a time (epoch
 * seconds, as GitHub sends): it is taken relative to the answer's `Date`, which is the same
 * server's clock, so a server whose clock is off still shows the right time to go. Times are in
 * the playground's clock: the moment the answer came (`receivedAt`) plus the time to go.
 */
import { type Exchange, type HeaderList } from './types';
import { parseList, type BareItem } from './structured-field';

interface ZoneUsage {
	zone: 1 | 2;
	usage: number;
	limit: number;
}

/** The service's own headers, as sent (the zones with both numbers, and the reset). */
export interface RateLimits {
	zones: ZoneUsage[];
	/** Seconds until the limits reset, as the service said. */
	resetAfter?: number;
}

/** One budget an answer told about. */
export interface Meter {
	/** Unique within an answer, and the same for the same budget in the next answer. */
	key: string;
	/** The service's zone, from its own headers. */
	zone?: 1 | 2;
	/** What it counts, in words: "Zone 1 (reads)", "Requests (core)", `Policy "daily"`. */
	label: string;
	limit?: number;
	used?: number;
	left?: number;
	/** The quota's unit when it is not requests (the IETF `qu`: `content-bytes`, say). */
	unit?: string;
	/** The policy's window, seconds (the IETF `w`). */
	window?: number;
	/** When it resets, ms since the epoch, in the playground's clock. */
	resetAt?: number;
}

export interface Budget {
	meters: Meter[];
	/** `Retry-After`, as a moment in the playground's clock. */
	retryAt?: number;
}

const WHOLE = /^\s*(\d{1,15})\s*$/;

function num(v: string | undefined): number | undefined {
	const m = WHOLE.exec(v ?? '');
	return m ? Number(m[1]) : undefined;
}

/** Every value of a header, in order (a header may come more than once). */
function values(headers: HeaderList, name: string): string[] {
	const lower = name.toLowerCase();
	return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** A header's one value; `null` when it came more than once with different values (ambiguous). */
function single(headers: HeaderList, name: string): string | undefined | null {
	const all = values(headers, name);
	return all.some((v) => v !== all[0]) ? null : all[0];
}

export function rateLimits(headers: HeaderList): RateLimits | undefined {
	const zones: ZoneUsage[] = [];
	for (const zone of [1, 2] as const) {
		const usage = num(single(headers, `X-Reader-Zone${zone}-Usage`) ?? undefined);
		const limit = num(single(headers, `X-Reader-Zone${zone}-Limit`) ?? undefined);
		if (usage !== undefined && limit !== undefined) zones.push({ zone, usage, limit });
	}
	const resetAfter = num(single(headers, 'X-Reader-Limits-Reset-After') ?? undefined);
	if (!zones.length && resetAfter === undefined) return undefined;
	return { zones, resetAfter };
}

const DAYS = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MON = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^(?:${DAYS}), (\\d{2}) (${MON}) (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(
	`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MON})-(\\d{2}) ${TIME} GMT$`
);
const ASCTIME = new RegExp(`^(?:${DAYS}) (${MON}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** An HTTP date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms), ms. */
export function httpDate(value: string | undefined): number | undefined {
	const v = (value ?? '').trim();
	let parts: [day: string, month: string, year: number, h: string, m: string, s: string];
	let m = IMF_FIXDATE.exec(v);
	if (m) parts = [m[1]!, m[2]!, Number(m[3]), m[4]!, m[5]!, m[6]!];
	else if ((m = RFC850.exec(v))) {
		const yy = Number(m[3]);
		parts = [m[1]!, m[2]!, yy + (yy < 70 ? 2000 : 1900), m[4]!, m[5]!, m[6]!];
	} else if ((m = ASCTIME.exec(v))) parts = [m[2]!, m[1]!, Number(m[6]), m[3]!, m[4]!, m[5]!];
	else return undefined;
	const [day, month, year, h, min, s] = parts;
	const d = Number(day);
	if (d < 1 || d > 31 || Number(h) > 23 || Number(min) > 59 || Number(s) > 60) return undefined;
	return Date.UTC(year, MONTHS.indexOf(month), d, Number(h), Number(min), Number(s));
}

/** Turns the answer's relative and absolute times into the playground's clock. */
interface Times {
	/** `s` seconds after the answer. */
	after(s: number): number | undefined;
	/** A moment in the server's clock, ms. */
	at(serverMs: number): number | undefined;
}

function times(headers: HeaderList, receivedAt: number | undefined): Times {
	const date = httpDate(single(headers, 'Date') ?? undefined);
	const anchor = receivedAt ?? date;
	return {
		after: (s) => (anchor === undefined ? undefined : anchor + s * 1000),
		at: (ms) => (date !== undefined && receivedAt !== undefined ? receivedAt + (ms - date) : ms)
	};
}

const ZONE_LABEL = { 1: 'Zone 1 (reads)', 2: 'Zone 2 (writes)' } as const;

function readerMeters(headers: HeaderList, t: Times): Meter[] {
	const limits = rateLimits(headers);
	if (!limits) return [];
	const resetAt = limits.resetAfter === undefined ? undefined : t.after(limits.resetAfter);
	return limits.zones.map(({ zone, usage, limit }) => ({
		key: `zone${zone}`,
		zone,
		label: ZONE_LABEL[zone],
		limit,
		used: usage,
		left: Math.max(0, limit - usage),
		resetAt
	}));
}

/** 1e9 seconds and more: an epoch time; 1e11 and more is neither (milliseconds, say): not read. */
const EPOCH_FROM = 1e9;
const EPOCH_UNTIL = 1e11;

/** The leading whole number of a limit: the older drafts allow `100, 100;w=10` (the first is the limit). */
const LIMIT = /^\s*(\d{1,15})\s*(?:,.*)?$/;

/**
 * The three-header shapes: `RateLimit-*` (the older drafts) and `X-RateLimit-*` (GitHub, Feedly
 * and most others). `undefined` when none of its headers is there, or one is not understood.
 */
function tripleMeter(headers: HeaderList, prefix: '' | 'X-', t: Times): Meter | undefined | null {
	const h = (name: string) => single(headers, `${prefix}RateLimit-${name}`);
	const raw = {
		limit: h('Limit'),
		remaining: h('Remaining'),
		reset: h('Reset'),
		used: prefix ? h('Used') : undefined,
		count: prefix ? h('Count') : undefined
	};
	const given = Object.entries(raw).filter(([, v]) => v !== undefined);
	if (!given.length) return undefined;
	if (given.some(([, v]) => v === null)) return null;
	const limitMatch = raw.limit === undefined ? undefined : LIMIT.exec(raw.limit!);
	const limit = limitMatch ? Number(limitMatch[1]) : undefined;
	const remaining = num(raw.remaining ?? undefined);
	const used = num(raw.used ?? undefined) ?? num(raw.count ?? undefined);
	const reset = num(raw.reset ?? undefined);
	// A value given but not a whole number: a shape this does not know.
	if (
		(raw.limit !== undefined && limit === undefined) ||
		(raw.remaining !== undefined && remaining === undefined) ||
		(raw.used !== undefined && num(raw.used!) === undefined) ||
		(raw.count !== undefined && num(raw.count!) === undefined) ||
		(raw.reset !== undefined && (reset === undefined || reset >= EPOCH_UNTIL))
	)
		return null;
	if (remaining === undefined && used === undefined) return null;
	if (limit !== undefined && remaining !== undefined && remaining > limit) return null;
	const resource = prefix ? single(headers, 'X-RateLimit-Resource') : undefined;
	const named = resource && /^[\w.-]{1,40}$/.test(resource) ? resource : undefined;
	return {
		key: `${prefix.toLowerCase()}ratelimit${named ? `:${named}` : ''}`,
		label: named ? `Requests (${named})` : 'Requests',
		limit,
		used: used ?? (limit !== undefined && remaining !== undefined ? limit - remaining : undefined),
		left: remaining ?? (limit !== undefined ? Math.max(0, limit - used!) : undefined),
		resetAt:
			reset === undefined ? undefined : reset >= EPOCH_FROM ? t.at(reset * 1000) : t.after(reset)
	};
}

const isInt = (b: BareItem | undefined): b is { type: 'integer'; value: number } =>
	b?.type === 'integer' && b.value >= 0;

/** A policy name as a label: the first 40 characters. */
const policyLabel = (name: string) =>
	`Policy “${name.length > 40 ? `${name.slice(0, 39)}…` : name}”`;

interface Policy {
	q: number;
	unit?: string;
	window?: number;
}

/** `RateLimit-Policy` (draft-11 §3): each item a String naming a policy, with `q` and maybe `qu`, `w`. */
function policies(headers: HeaderList): Map<string, Policy> {
	const out = new Map<string, Policy>();
	const list = parseList(values(headers, 'RateLimit-Policy'));
	if (!list) return out;
	const read: [string, Policy][] = [];
	for (const m of list) {
		const q = m.kind === 'item' ? m.params.get('q') : undefined;
		const w = m.kind === 'item' ? m.params.get('w') : undefined;
		const qu = m.kind === 'item' ? m.params.get('qu') : undefined;
		if (m.kind !== 'item' || m.value.type !== 'string' || !isInt(q)) return out;
		if (w !== undefined && !(isInt(w) && w.value > 0)) return out;
		if (qu !== undefined && qu.type !== 'string') return out;
		read.push([
			m.value.value,
			{
				q: q.value,
				unit: qu && qu.value !== 'requests' ? (qu.value as string) : undefined,
				window: w?.value
			}
		]);
	}
	for (const [name, p] of read) if (!out.has(name)) out.set(name, p);
	return out;
}

/** `RateLimit` (draft-11 §4): each item a String naming a policy, with `r` left and maybe `t` seconds. */
function ietfMeters(headers: HeaderList, t: Times): Meter[] {
	const lines = values(headers, 'RateLimit');
	if (!lines.length) return [];
	const list = parseList(lines);
	if (!list) return [];
	const items: { name: string; r: number; t?: number }[] = [];
	for (const m of list) {
		if (m.kind !== 'item' || m.value.type !== 'string') return [];
		const r = m.params.get('r');
		const s = m.params.get('t');
		if (!isInt(r) || (s !== undefined && !isInt(s))) return [];
		items.push({ name: m.value.value, r: r.value, t: s?.value });
	}
	const known = policies(headers);
	const seen = new Set<string>();
	const out: Meter[] = [];
	for (const item of items) {
		if (seen.has(item.name)) continue;
		seen.add(item.name);
		const policy = known.get(item.name);
		// A quota below what is left is no limit this answer can be drawn against.
		const limit = policy && item.r <= policy.q ? policy.q : undefined;
		out.push({
			key: `policy:${item.name}`,
			label: policyLabel(item.name),
			limit,
			used: limit === undefined ? undefined : limit - item.r,
			left: item.r,
			unit: policy?.unit,
			window: policy?.window,
			resetAt: item.t === undefined ? undefined : t.after(item.t)
		});
	}
	return out;
}

function retryAt(headers: HeaderList, t: Times): number | undefined {
	const v = single(headers, 'Retry-After');
	if (v === undefined || v === null) return undefined;
	const s = num(v);
	if (s !== undefined) return t.after(s);
	const at = httpDate(v);
	return at === undefined ? undefined : t.at(at);
}

/**
 * The budgets an answer's headers tell about. `receivedAt`: when the answer came, ms (the resets
 * are counted from it); without it, from the answer's `Date`.
 */
export function readBudget(headers: HeaderList, receivedAt?: number): Budget | undefined {
	const t = times(headers, receivedAt);
	const meters = [
		...readerMeters(headers, t),
		...ietfMeters(headers, t),
		tripleMeter(headers, '', t),
		tripleMeter(headers, 'X-', t)
	].filter((m): m is Meter => !!m);
	const retry = retryAt(headers, t);
	if (!meters.length && retry === undefined) return undefined;
	return retry === undefined ? { meters } : { meters, retryAt: retry };
}

/** When an exchange's answer came, ms since the epoch (its start plus its time). */
export function receivedAtOf(ex: Pick<Exchange, 'startedAt' | 'timing'>): number | undefined {
	const start = Date.parse(ex.startedAt);
	return Number.isNaN(start) ? undefined : start + ex.timing.total;
}

/** The budgets an exchange's answer told about. */
export function budgetOf(
	ex: Pick<Exchange, 'startedAt' | 'timing' | 'response'>
): Budget | undefined {
	return ex.response ? readBudget(ex.response.headers, receivedAtOf(ex)) : undefined;
}
