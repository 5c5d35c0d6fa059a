/**
 * Decoding (never verifying) a token that happens to be a JWT, for display. jose's decoders work in
 * the browser and on the server; anything they refuse (an opaque token, a JWE, garbage) is "not a JWT".
 */
import { decodeJwt as decodePayload, decodeProtectedHeader } from 'jose';
import { isFiniteNumber } from '$lib/exchange/text';

export type TimeClaim = 'exp' | 'iat' | 'nbf';

interface JwtTime {
	name: TimeClaim;
	/** Seconds since the epoch, as in the token. */
	value: number;
	/** The same instant as an ISO 8601 string (UTC). */
	date: string;
}

export type DecodedJwt =
	| {
			ok: true;
			header: Record<string, unknown>;
			payload: Record<string, unknown>;
			times: JwtTime[];
	  }
	| { ok: false };

const TIME_CLAIMS: TimeClaim[] = ['exp', 'iat', 'nbf'];
/** The largest time a Date can hold, in milliseconds. */
const MAX_DATE_MS = 8.64e15;

/** Header and payload of a compact JWS; `{ ok: false }` for anything else (JWEs included). */
export function decodeJwt(token: string): DecodedJwt {
	// jose's decoders skip the white space around a token, and decodePayload refuses any token that
	// is not three parts (a JWE's header alone would decode).
	try {
		const header = decodeProtectedHeader(token) as Record<string, unknown>;
		const payload = decodePayload(token) as Record<string, unknown>;
		const times: JwtTime[] = [];
		for (const name of TIME_CLAIMS) {
			const value = payload[name];
			if (!isFiniteNumber(value) || Math.abs(value * 1000) > MAX_DATE_MS) continue;
			times.push({ name, value, date: new Date(value * 1000).toISOString() });
		}
		return { ok: true, header, payload, times };
	} catch {
		return { ok: false };
	}
}

/** "in 59 min", "3 s ago", "now": a time relative to `nowMs`, in whole units, rounded down. */
export function relativeTime(atMs: number, nowMs: number): string {
	// Whole seconds, rounded toward zero: under a second either way is "now".
	const s = Math.trunc((atMs - nowMs) / 1000);
	if (s > 0) return `in ${span(s)}`;
	if (s < 0) return `${span(-s)} ago`;
	return 'now';
}

/** A positive number of seconds in its largest whole unit: "59 s", "1 h 5 min", "3 days". */
function span(s: number): string {
	if (s < 60) return `${s} s`;
	if (s < 3600) return `${Math.floor(s / 60)} min`;
	if (s < 48 * 3600) {
		const h = Math.floor(s / 3600);
		const m = Math.floor((s % 3600) / 60);
		return m ? `${h} h ${m} min` : `${h} h`;
	}
	return `${Math.floor(s / 86400)} days`;
}
