/** The service's rate-limit headers (the service's API docs: X-Reader-Zone1-Usage, -Limit, Zone2, X-Reader-Limits-Reset-After). */
import { headerValue, type HeaderList } from './types';

interface ZoneUsage {
	zone: 1 | 2;
	usage: number;
	limit: number;
}

export interface RateLimits {
	zones: ZoneUsage[];
	/** Seconds until the limits reset, as the service said. */
	resetAfter?: number;
}

function num(v: string | undefined): number | undefined {
	if (!/^\s*\d+\s*$/.test(v ?? '')) return undefined;
	return Number(v);
}

export function rateLimits(headers: HeaderList): RateLimits | undefined {
	const zones: ZoneUsage[] = [];
	for (const zone of [1, 2] as const) {
		const usage = num(headerValue(headers, `X-Reader-Zone${zone}-Usage`));
		const limit = num(headerValue(headers, `X-Reader-Zone${zone}-Limit`));
		if (usage !== undefined && limit !== undefined) zones.push({ zone, usage, limit });
	}
	const resetAfter = num(headerValue(headers, 'X-Reader-Limits-Reset-After'));
	if (!zones.length && resetAfter === undefined) return undefined;
	return { zones, resetAfter };
}
