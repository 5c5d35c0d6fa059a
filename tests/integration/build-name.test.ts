/**
 * The page and its client code agree on the build's name. The page's start script hands its data to
 * the client code through a global named after the build (`__sveltekit_<hash>`); when the server
 * half of a build names another global than the client half reads, every page stays as the server
 * rendered it, and no button does anything. That happened when the name changed between the
 * processes that load svelte.config.js while the build runs (svelte.config.js says why).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
beforeAll(async () => {
	srv = await startServer({ PLAYGROUND_LOG: 'off' });
});
afterAll(() => srv?.stop());

/** The `__sveltekit_…` globals a text names. */
const globalsIn = (text: string) =>
	new Set([...text.matchAll(/__sveltekit_([a-z0-9]+)/g)].map((m) => m[1]!));

test('the page hands its data to the global its client code reads', async () => {
	const html = await (await fetch(srv.url + '/')).text();
	const given = globalsIn(html);
	expect(given.size).toBe(1);

	// Every module the page loads, and every module those import, over HTTP as the browser gets them.
	const seen = new Set<string>();
	const queue = [...html.matchAll(/import\("\.\/(_app\/immutable\/[^"]+\.js)"\)/g)].map(
		(m) => new URL(m[1]!, srv.url + '/').href
	);
	expect(queue.length).toBeGreaterThan(0);
	const read = new Set<string>();
	while (queue.length) {
		const url = queue.shift()!;
		if (seen.has(url)) continue;
		seen.add(url);
		const res = await fetch(url);
		expect(res.status, url).toBe(200);
		const code = await res.text();
		for (const name of globalsIn(code)) read.add(name);
		for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g))
			queue.push(new URL(m[1]!, url).href);
	}
	expect(read.size).toBeGreaterThan(0);
	expect([...read]).toEqual([...given]);
});
