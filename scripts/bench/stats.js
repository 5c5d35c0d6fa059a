// Numbers: quantiles, summaries, and a bounded pool of concurrent work.

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Linear-interpolated quantile of unsorted numbers. @param {number[]} xs @param {number} q */
export function quantile(xs, q) {
	if (!xs.length) return NaN;
	const s = [...xs].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	const hi = Math.ceil(pos);
	const a = /** @type {number} */ (s[lo]);
	const b = /** @type {number} */ (s[hi]);
	return a + (b - a) * (pos - lo);
}

/** @param {number} x @param {number} [digits] */
export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** @param {number[]} xs */
export function stats(xs) {
	return {
		n: xs.length,
		median: round(quantile(xs, 0.5), 3),
		p90: round(quantile(xs, 0.9), 3),
		p99: round(quantile(xs, 0.99), 3),
		min: round(Math.min(...xs), 3),
		max: round(Math.max(...xs), 3)
	};
}

/**
 * Runs fn(0…count-1) with at most `concurrency` in flight; stops starting new ones after `budgetMs`.
 * @template T
 * @param {number} count @param {number} concurrency @param {(i: number) => Promise<T>} fn @param {number} [budgetMs]
 * @returns {Promise<T[]>}
 */
export async function pool(count, concurrency, fn, budgetMs = Infinity) {
	/** @type {T[]} */
	const out = [];
	const deadline = performance.now() + budgetMs;
	let next = 0;
	async function worker() {
		while (next < count && performance.now() < deadline) {
			const i = next++;
			out[i] = await fn(i);
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return out.filter((x) => x !== undefined);
}

/**
 * Interleaved samples, one request in flight: playground, direct; then direct, playground; and so on,
 * so drift and order effects hit both sides alike. The first `warmup` pairs are not kept.
 * @param {number} count @param {number} warmup
 * @param {(i: number) => Promise<number>} playground @param {(i: number) => Promise<number>} direct
 */
export async function sideBySide(count, warmup, playground, direct) {
	/** @type {number[]} */ const play = [];
	/** @type {number[]} */ const dir = [];
	for (let i = 0; i < warmup + count; i++) {
		const first = i % 2 === 0;
		const a = first ? await playground(i) : await direct(i);
		const b = first ? await direct(i) : await playground(i);
		if (i < warmup) continue;
		play.push(first ? a : b);
		dir.push(first ? b : a);
	}
	const p = stats(play);
	const d = stats(dir);
	return {
		playground: p,
		direct: d,
		overheadMedianMs: round(p.median - d.median, 3),
		overheadP99Ms: round(p.p99 - d.p99, 3),
		samples: { playground: play.map((x) => round(x, 3)), direct: dir.map((x) => round(x, 3)) }
	};
}
