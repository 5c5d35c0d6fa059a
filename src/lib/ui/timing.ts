/**
 * The phases of one request's timing, for the timing bar. In a Timing, dns, connect and tls are
 * durations, while firstByte and total are measured from the start (see send.ts).
 */
import type { Timing } from '$lib/exchange/types';

export type PhaseName = 'queued' | 'dns' | 'connect' | 'tls' | 'waiting' | 'download';

export interface Phase {
	name: PhaseName;
	/** Length of the phase, ms. */
	ms: number;
	/** Where it starts, ms from the start of the request. */
	start: number;
}

export const PHASE_LABELS: Record<PhaseName, string> = {
	queued: 'queued in the playground',
	dns: 'DNS',
	connect: 'connect',
	tls: 'TLS',
	waiting: 'waiting',
	download: 'download'
};

const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi);
const known = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * The known phases in order: queued (waiting for one of the playground's own connections, the
 * playground's time and not the service's), DNS, connect, TLS, waiting (until the first byte, or until the end when
 * no answer came), download (first byte to the end). Phase boundaries are kept in order and inside
 * [0, total], so no phase is negative and the phases add up to the total.
 */
export function phases(timing: Timing): Phase[] {
	const total = known(timing.total) ? Math.max(timing.total, 0) : 0;
	if (total === 0) return [];
	const out: Phase[] = [];
	let at = 0;
	const push = (name: PhaseName, end: number) => {
		const e = clamp(end, at, total);
		out.push({ name, ms: e - at, start: at });
		at = e;
	};
	if (known(timing.queued)) push('queued', at + Math.max(timing.queued, 0));
	if (known(timing.dns)) push('dns', at + Math.max(timing.dns, 0));
	if (known(timing.connect)) push('connect', at + Math.max(timing.connect, 0));
	if (known(timing.tls)) push('tls', at + Math.max(timing.tls, 0));
	if (known(timing.firstByte)) {
		push('waiting', timing.firstByte);
		push('download', total);
	} else if (at < total) push('waiting', total);
	return out;
}

/** A kept-alive connection: an answer came, but there was no DNS lookup, connect or TLS handshake. */
export function reusedConnection(timing: Timing): boolean {
	return (
		timing.total > 0 &&
		known(timing.firstByte) &&
		!known(timing.dns) &&
		!known(timing.connect) &&
		!known(timing.tls)
	);
}

/** "12 ms", "0.8 ms", "0 ms": one decimal below 10 ms, whole milliseconds above. */
export function formatMs(n: number): string {
	if (n === 0) return '0 ms';
	const tenths = Math.round(n * 10) / 10;
	return `${tenths < 10 ? tenths.toFixed(1) : Math.round(n)} ms`;
}

/** "DNS 1.2 ms, connect 0.8 ms, waiting 12 ms, download 0.4 ms, total 14 ms"; empty when nothing was measured. */
export function describeTiming(timing: Timing): string {
	const list = phases(timing);
	if (!list.length) return '';
	const parts = list.map((p) => `${PHASE_LABELS[p.name]} ${formatMs(p.ms)}`);
	parts.push(`total ${formatMs(timing.total)}`);
	return (reusedConnection(timing) ? 'Reused connection: ' : '') + parts.join(', ');
}
