// The in-app summary of the service's API docs: every section the product cites has its anchor there,
// and no text the product shows calls the published interface anything else.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiDocsHref, citationParts } from '$lib/oauth/docs';
import { startServer, type TestServer } from '../helpers/server';

let srv: TestServer;
beforeAll(async () => {
	srv = await startServer();
});
afterAll(() => srv?.stop());

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory()
			? sourceFiles(path)
			: /\.(ts|js|svelte)$/.test(name)
				? [path]
				: [];
	});
}

// Each citation in the sources, written out ("the service's API docs §4.2, §4.3") or through the
// helper (`apiDocs('§5 step 3')`).
function citedSections(): Set<string> {
	const found = new Set<string>();
	for (const file of sourceFiles('src')) {
		const text = readFileSync(file, 'utf8').replace(
			/\$\{API_DOCS\}|' \+ API_DOCS \+ '/g,
			"the service's API docs"
		);
		for (const p of citationParts(text)) if (p.href) found.add(p.href);
		for (const m of text.matchAll(/apiDocs\(((?:'§[^']+'(?:, )?)+)\)/g))
			for (const s of m[1]!.matchAll(/'(§[^']+)'/g)) found.add(apiDocsHref(s[1]!));
	}
	return found;
}

test('every section the product cites has its anchor on /api-docs', async () => {
	const res = await fetch(`${srv.url}/api-docs`);
	expect(res.status).toBe(200);
	const html = await res.text();
	const cited = citedSections();
	expect(cited.size).toBeGreaterThan(10);
	const missing = [...cited].filter((href) => !html.includes(`id="${href.split('#')[1]}"`));
	expect(missing).toEqual([]);
});

test('the product never calls the service’s API docs "seed"', () => {
	const offenders = sourceFiles('src').filter((f) => /\bseed\b/i.test(readFileSync(f, 'utf8')));
	expect(offenders).toEqual([]);
});
