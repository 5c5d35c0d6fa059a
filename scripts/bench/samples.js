// What (a), (b) and (c) share: for each sample, a session that holds a fresh code and a fresh code
// for the direct request, both prepared beforehand through the real consent flow.
import http from 'node:http';
import { CONFIG, PREP_CONCURRENCY } from './config.js';
import { directCode, sessionWithCode } from './http.js';
import { pool, round } from './stats.js';

/** @param {string} base */
export async function prepareSamples(base) {
	const prep = new http.Agent({ keepAlive: true, maxSockets: PREP_CONCURRENCY });
	const total = CONFIG.warmup + CONFIG.samples;
	const t = performance.now();
	const sessions = await pool(total, PREP_CONCURRENCY, () => sessionWithCode(prep, base));
	const codes = await pool(total, PREP_CONCURRENCY, () => directCode(prep, base));
	const prepSeconds = round((performance.now() - t) / 1000, 1);
	prep.destroy();
	return { sessions, codes, prepSeconds };
}
