/** Limits of the playground server, from the environment (all listed in the README). */

export function intFromEnv(name: string, fallback: number, min = 1): number {
	const raw = process.env[name];
	if (raw === undefined || raw.trim() === '') return fallback;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < min)
		throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
	return n;
}

export interface Limits {
	connectTimeoutMs: number;
	totalTimeoutMs: number;
	maxResponseBytes: number;
	maxRequestBytes: number;
}

let cached: Limits | undefined;

export function limits(): Limits {
	cached ??= {
		connectTimeoutMs: intFromEnv('PLAYGROUND_CONNECT_TIMEOUT_MS', 5_000),
		totalTimeoutMs: intFromEnv('PLAYGROUND_TOTAL_TIMEOUT_MS', 15_000),
		maxResponseBytes: intFromEnv('PLAYGROUND_MAX_RESPONSE_BYTES', 1024 * 1024),
		maxRequestBytes: intFromEnv('PLAYGROUND_MAX_REQUEST_BYTES', 64 * 1024)
	};
	return cached;
}
