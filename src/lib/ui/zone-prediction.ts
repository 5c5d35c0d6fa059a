/**
 * The zone an API console call counts in, said before Send, and how sure that is; and, after the
 * answer, the zone its rate-limit headers show. The service has two zones, and zone 2 needs
 * `read write` (the service's API docs §5 step 7); its docs list no zone for each path and no
 * numbers (§8). So, before Send:
 *
 * - against the built-in sandbox: its own table (sandbox/reader-endpoints.ts), certain;
 * - against another service: the zone an earlier answer of this flow showed for the same method and
 *   path (the zone whose usage header rose, `X-Reader-Zone{1,2}-Usage`), certain; otherwise a
 *   likely guess by the method (writes in zone 2, reads in zone 1), said to be a guess;
 * - a zone-2 call with a token granted only `read`: the service will most likely refuse it (403).
 *
 * After the answer, its headers show the zone (the one whose usage rose), and a wrong guess is
 * corrected. A prediction is words only: it never stops a call. Pure: the transcript is handed in.
 */
import { rateLimits, receivedAtOf, type RateLimits } from '$lib/exchange/rate-limit-headers';
import type { Exchange } from '$lib/exchange/types';
import { apiUrl } from '$lib/oauth/api-request';
import { readerEndpointAt } from '$lib/sandbox/reader-endpoints';

type Zone = 1 | 2;

/** The call as the console's form holds it. */
export interface ZoneCall {
	method: string;
	/** Below the API base, or from the origin's root with a leading `/` (api-request.ts). */
	path: string;
	query: string;
}

export interface ZoneContext {
	/** The setup's API base URL (`…/reader/api/0/`). */
	apiBase: string;
	/** The API is the built-in sandbox's. */
	sandbox: boolean;
	/** This flow's exchanges, oldest first. */
	exchanges: readonly Exchange[];
	/** The access token's scope: as granted, or as requested when the answer did not say (RFC 6749 §5.1). */
	scope?: string;
}

export interface ZonePrediction {
	/** Undefined when the call counts in no zone (the sandbox has no such endpoint). */
	zone?: Zone;
	certain: boolean;
	/** Where it comes from: the sandbox's table, an earlier answer, the method, or no zone. */
	from: 'sandbox' | 'earlier' | 'method' | 'none';
	text: string;
	/** Why the service will most likely refuse it (403), when the token cannot write. */
	refusal?: string;
}

/** What an answer's headers show: the zone whose usage rose since the reading before. */
export type ZoneReading = { zone: Zone } | { zone?: undefined; why: 'none-rose' | 'both-rose' };

const NAME = { 1: 'Zone 1 (reads)', 2: 'Zone 2 (writes)' } as const;
const GUESS =
	"A guess by the method: the service's API docs §5 step 7 say only that zone 2 needs `read write`, and list no zone for each path.";

const isRead = (method: string) => /^(GET|HEAD)$/i.test(method);

/** Exactly `read`: a token that cannot write. */
function readOnly(scope: string | undefined): boolean {
	const words = (scope ?? '').split(' ').filter(Boolean);
	return words.length > 0 && words.every((w) => w === 'read');
}

function decoded(path: string): string {
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
}

/**
 * Every answer's zone, by exchange id, for the answers that carry the service's usage headers. A
 * zone's usage counts from the reading before from the same origin (another service's counters
 * are its own), or from 0 when there is none, when that reading's reset time has passed, or when
 * the usage fell (its window started again).
 */
export function zoneReadings(exchanges: readonly Exchange[]): Map<string, ZoneReading> {
	const out = new Map<string, ZoneReading>();
	const readings = new Map<string, { limits: RateLimits; at?: number }>();
	for (const ex of exchanges) {
		if (!ex.response) continue;
		const limits = rateLimits(ex.response.headers);
		if (!limits?.zones.length) continue;
		const origin = URL.canParse(ex.request.url) ? new URL(ex.request.url).origin : '';
		const before = readings.get(origin);
		const at = receivedAtOf(ex);
		const reset =
			before?.limits.resetAfter !== undefined &&
			before.at !== undefined &&
			at !== undefined &&
			before.at + before.limits.resetAfter * 1000 <= at;
		const rose = limits.zones.filter(({ zone, usage }) => {
			const was = reset ? undefined : before?.limits.zones.find((z) => z.zone === zone)?.usage;
			return usage > (was === undefined || usage < was ? 0 : was);
		});
		out.set(
			ex.id,
			rose.length === 1 ? { zone: rose[0]!.zone } : { why: rose.length ? 'both-rose' : 'none-rose' }
		);
		readings.set(origin, { limits, at });
	}
	return out;
}

function refusal(zone: Zone | undefined, ctx: ZoneContext): string | undefined {
	if (zone !== 2 || !readOnly(ctx.scope)) return undefined;
	const who = ctx.sandbox ? 'the sandbox' : 'the service';
	return `This token was granted only \`read\`, so ${who} will most likely refuse the call (403): zone 2 needs \`read write\` (the service's API docs §5 step 7).`;
}

/** The prediction for a call to `url` with `method`, from what `ctx` knows. */
function predictAt(method: string, url: URL, ctx: ZoneContext): ZonePrediction {
	const m = method.toUpperCase();
	const base = new URL(ctx.apiBase);
	if (ctx.sandbox) {
		const below = url.pathname.startsWith(base.pathname)
			? decoded(url.pathname.slice(base.pathname.length))
			: undefined;
		const found = below === undefined ? undefined : readerEndpointAt(below);
		if (!found)
			return {
				certain: true,
				from: 'none',
				text: 'No zone: the sandbox has no API endpoint at this path, so it answers 404 and counts nothing.'
			};
		if ((m === 'HEAD' ? 'GET' : m) !== found.endpoint.method)
			return {
				certain: true,
				from: 'none',
				text: `No zone: the sandbox answers ${m} ${found.name} with 405 (it takes ${found.endpoint.method}) and counts nothing.`
			};
		const zone = found.endpoint.zone;
		return {
			zone,
			certain: true,
			from: 'sandbox',
			text: `${NAME[zone]}, as the sandbox counts it.`,
			refusal: refusal(zone, ctx)
		};
	}
	const readings = zoneReadings(ctx.exchanges);
	for (let i = ctx.exchanges.length - 1; i >= 0; i--) {
		const ex = ctx.exchanges[i]!;
		const zone = readings.get(ex.id)?.zone;
		if (!zone || ex.request.method.toUpperCase() !== m) continue;
		let path: string;
		try {
			const u = new URL(ex.request.url);
			if (u.origin !== url.origin) continue;
			path = u.pathname;
		} catch {
			continue;
		}
		if (path !== url.pathname) continue;
		return {
			zone,
			certain: true,
			from: 'earlier',
			text: `${NAME[zone]}: an earlier answer to ${m} ${path} showed it (its zone ${zone} usage rose).`,
			refusal: refusal(zone, ctx)
		};
	}
	const zone: Zone = isRead(m) ? 1 : 2;
	return {
		zone,
		certain: false,
		from: 'method',
		text:
			zone === 2
				? `Likely zone 2: it writes, and the service's API docs put writes in zone 2. ${GUESS}`
				: `Likely zone 1: it reads. ${GUESS}`,
		refusal: refusal(zone, ctx)
	};
}

/** Before Send: the zone of the call the form holds; undefined when its path makes no URL. */
export function predictZone(call: ZoneCall, ctx: ZoneContext): ZonePrediction | undefined {
	const url = apiUrl(call, ctx.apiBase);
	return url.ok ? predictAt(call.method, new URL(url.value), ctx) : undefined;
}

/**
 * After the answer to `ex` (one of `ctx.exchanges`): the zone its headers show, and what was
 * predicted before it was sent (from the exchanges before it); undefined when its answer carries
 * no zone usage.
 */
export function zoneAfterAnswer(ex: Exchange, ctx: ZoneContext): string | undefined {
	const i = ctx.exchanges.findIndex((e) => e.id === ex.id);
	if (i < 0) return undefined;
	const reading = zoneReadings(ctx.exchanges.slice(0, i + 1)).get(ex.id);
	if (!reading) return undefined;
	let before: ZonePrediction | undefined;
	try {
		before = predictAt(ex.request.method, new URL(ex.request.url), {
			...ctx,
			exchanges: ctx.exchanges.slice(0, i)
		});
	} catch {
		before = undefined;
	}
	if (!reading.zone)
		return reading.why === 'both-rose'
			? "The answer's headers show both zones' usage rising since the answer before (other calls of this client id count too), so they tell no zone."
			: "The answer's headers show no zone's usage rising, so they tell no zone: the call was most likely not counted.";
	const shown = `the answer's headers show zone ${reading.zone} (its usage rose)`;
	if (!before?.zone) return `${shown[0]!.toUpperCase()}${shown.slice(1)}.`;
	if (!before.certain)
		return before.zone === reading.zone
			? `Sent as likely zone ${before.zone}; the answer's headers confirm zone ${reading.zone}.`
			: `Sent as likely zone ${before.zone}; ${shown}.`;
	return before.zone === reading.zone
		? `${shown[0]!.toUpperCase()}${shown.slice(1)}, as expected.`
		: `Sent as zone ${before.zone}; ${shown}.`;
}
