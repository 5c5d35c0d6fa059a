/**
 * The rate-limit meters in words (`RateLimits.svelte`, under an answer) and the line that says,
 * before the next call, that the budget it draws on is nearly spent (`BudgetNote.svelte`, by the
 * user-info button and the API console's Send). Pure: the time now and the time zone are handed in.
 *
 * "4 of 5 left, resets at 14:05 (in 9 min)"; "57 used, resets at 21:04 (in 6 h 37 min)" when only a
 * count is known (Feedly's `X-Ratelimit-Count`); "reset at 14:05 (3 min ago)" once it has passed.
 */
import { budgetOf, type Meter } from '$lib/exchange/rate-limit-headers';
import type { Exchange } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';

/** A moment as the user reads it: "14:05" today, "2 Jul 14:05" another day, in their time zone. */
export type ClockWords = (at: number, now: number) => string;

/**
 * The page's formatters, one per time zone ('' for the user's own): every answer's meters have
 * their clock, and making a formatter takes longer than formatting with it.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

/** `timeZone`: an IANA name; the user's own (the browser's) when not given. */
export function clockWords(timeZone?: string): ClockWords {
	let format = formats.get(timeZone ?? '');
	if (!format) {
		format = new Intl.DateTimeFormat('en-GB', {
			timeZone,
			year: 'numeric',
			month: 'short',
			day: 'numeric',
			hour: '2-digit',
			minute: '2-digit',
			hourCycle: 'h23'
		});
		formats.set(timeZone ?? '', format);
	}
	const f = format;
	// The meters under every answer are said again at each tick of the page's clock, with the same
	// reset times and the same `now`: each moment is taken apart once (a handful are in use at a time).
	const seen = new Map<number, Record<string, string>>();
	const parts = (ms: number) => {
		let p = seen.get(ms);
		if (!p) {
			if (seen.size >= 64) seen.clear();
			p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
			seen.set(ms, p);
		}
		return p;
	};
	return (at, now) => {
		const a = parts(at);
		const n = parts(now);
		const time = `${a.hour}:${a.minute}`;
		if (a.year === n.year && a.month === n.month && a.day === n.day) return time;
		return `${a.day} ${a.month}${a.year === n.year ? '' : ` ${a.year}`} ${time}`;
	};
}

/** A span of time, to the minute past the first: "45 s", "9 min", "6 h 37 min", "2 d 3 h". */
export function spanWords(ms: number): string {
	const s = Math.floor(ms / 1000);
	const d = Math.floor(s / 86400);
	const h = Math.floor((s % 86400) / 3600);
	const m = Math.floor((s % 3600) / 60);
	if (d) return h ? `${d} d ${h} h` : `${d} d`;
	if (h) return m ? `${h} h ${m} min` : `${h} h`;
	if (m) return `${m} min`;
	return `${s} s`;
}

// One formatter: `toLocaleString` makes one for every number it writes.
const COUNT = new Intl.NumberFormat('en-US');
const count = (n: number) => COUNT.format(n);

/**
 * "resets at 14:05 (in 9 min)", or "reset at 14:05 (3 min ago)" once past; without the time to go
 * when `span` is false.
 */
function resetWords(resetAt: number, now: number, clock: ClockWords, span: boolean): string {
	const to = resetAt - now;
	const at = clock(resetAt, now);
	if (to > 0)
		return `resets at ${at}${span ? ` (in ${spanWords(Math.ceil(to / 1000) * 1000)})` : ''}`;
	return `reset at ${at}${span ? ` (${to > -1000 ? 'just now' : `${spanWords(-to)} ago`})` : ''}`;
}

/**
 * What a meter says: how much is left (or used, with no limit known), and when it resets, with the
 * time to go unless `span` is false (words to be said once, which must not change every minute).
 */
export function meterWords(m: Meter, now: number, clock: ClockWords, span = true): string {
	const unit = m.unit ? ` ${m.unit}` : '';
	const amount =
		m.left !== undefined
			? m.limit !== undefined
				? `${count(m.left)} of ${count(m.limit)}${unit} left`
				: `${count(m.left)}${unit} left`
			: `${count(m.used ?? 0)}${unit} used`;
	return m.resetAt === undefined ? amount : `${amount}, ${resetWords(m.resetAt, now, clock, span)}`;
}

/** The meter's name, with its policy's window when it has one: `Policy "basic" (per 1 min)`. */
export function meterLabel(m: Meter): string {
	return m.window ? `${m.label} (per ${spanWords(m.window * 1000)})` : m.label;
}

/** "Retry after 14:07 (in 2 min)" (Retry-After). */
export function retryWords(retryAt: number, now: number, clock: ClockWords): string {
	const to = retryAt - now;
	const at = clock(retryAt, now);
	return to > 0
		? `Retry after ${at} (in ${spanWords(Math.ceil(to / 1000) * 1000)})`
		: `Retry after ${at} (passed)`;
}

/** Nearly spent: 10% of the limit or less left, or one call or none. */
export function nearlySpent(m: Meter): boolean {
	if (m.left === undefined) return false;
	return m.left <= 1 || (m.limit !== undefined && m.left <= m.limit * 0.1);
}

/**
 * The zone a call counts in, as the service's API docs put it (§5 step 7: zone 2 needs read write,
 * so writes) and the sandbox's table of endpoints has it: reads (GET, as user-info) in zone 1,
 * the other methods in zone 2.
 */
export function zoneOfMethod(method: string): 1 | 2 {
	return /^(GET|HEAD)$/i.test(method) ? 1 : 2;
}

/**
 * The newest reading of each budget among the answers to calls of the API (user-info, the
 * console: the steps that send the access token), newest first.
 */
export function latestMeters(exchanges: readonly Exchange[]): Meter[] {
	const seen = new Map<string, Meter>();
	for (let i = exchanges.length - 1; i >= 0; i--) {
		const ex = exchanges[i]!;
		if (!ex.response || !specOf(ex.step).sendsAccessToken) continue;
		for (const m of budgetOf(ex)?.meters ?? []) if (!seen.has(m.key)) seen.set(m.key, m);
	}
	return [...seen.values()];
}

/**
 * What a call in `zone` costs, before Send: one call of the budget the newest answers showed for
 * that zone (`meters`, from `latestMeters`), with what is left and when it resets ("It spends 1 of
 * the 4 left in Zone 1 (reads), resets at 14:05 (in 9 min)."); once that reading has reset, only
 * that it has. None without a reading of the zone's budget. The meters are read from the answers
 * once, not at every tick of the clock that moves `now`.
 */
export function costWords(
	meters: readonly Meter[],
	zone: 1 | 2,
	now: number,
	clock: ClockWords
): string | undefined {
	const m = meters.find((m) => m.zone === zone && m.left !== undefined);
	if (!m) return undefined;
	const unit = m.unit ? ` ${m.unit}` : '';
	if (m.resetAt !== undefined && m.resetAt <= now)
		return `It spends 1 call of ${m.label}, whose last reading (${count(m.left!)}${unit} left) ${resetWords(m.resetAt, now, clock, true)}.`;
	const of = m.limit !== undefined ? ` of ${count(m.limit)}` : '';
	const reset = m.resetAt === undefined ? '' : `, ${resetWords(m.resetAt, now, clock, true)}`;
	return `It spends 1 of the ${count(m.left!)}${unit} left${of} in ${m.label}${reset}.`;
}

/** A line before the next call: `text` shown, `said` by the live region (no time to go in it). */
export interface BudgetWarning {
	key: string;
	text: string;
	said: string;
}

/**
 * Before a call in `zone`: a line for each budget it draws on that the newest answers (`meters`,
 * from `latestMeters`) left nearly spent and that has not reset since (a budget with no zone counts
 * every call).
 */
export function budgetWarnings(
	meters: readonly Meter[],
	zone: 1 | 2,
	now: number,
	clock: ClockWords
): BudgetWarning[] {
	return meters
		.filter((m) => (m.zone === undefined || m.zone === zone) && nearlySpent(m))
		.filter((m) => m.resetAt === undefined || m.resetAt > now)
		.map((m) => {
			const head = `${meterLabel(m)}: ${m.left === 0 ? 'spent' : 'nearly spent'}`;
			return {
				key: m.key,
				text: `${head}, ${meterWords(m, now, clock)}.`,
				said: `${head}, ${meterWords(m, now, clock, false)}.`
			};
		});
}
