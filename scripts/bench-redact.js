// `node scripts/bench-redact.js [path/to/redact.ts]`: a micro-benchmark of redaction, the part of
// every step that runs on all the text an exchange holds. It compiles src/lib/exchange/redact.ts
// and the modules it reads (or those beside the copy named, to compare two versions) with
// TypeScript into a temporary folder and times, in this process, with redactors as an app's
// (createRedactors), which keep the matchers of the secrets used lately:
// - a token exchange (about 2 KB) holding no copy redacted, the pattern kept: a usual step;
// - the same exchange with a 100 KB response body holding no copy;
// - an exchange whose response echoes the secret in several encodings;
// - building a new secret's patterns, alone and with the first search (the engine compiles a
//   pattern on its first use), each time with a secret not seen before.
// Prints the median of several rounds, in microseconds. Not a test: nothing here passes or fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const dir = mkdtempSync(join(tmpdir(), 'bench-redact-'));
try {
	// redact.ts and the modules it reads, beside it, as JavaScript modules.
	const from = dirname(resolve(process.argv[2] ?? 'src/lib/exchange/redact.ts'));
	for (const name of ['redact', 'lru', 'text', 'types']) {
		const out = ts.transpileModule(readFileSync(join(from, `${name}.ts`), 'utf8'), {
			compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }
		});
		writeFileSync(
			join(dir, `${name}.mjs`),
			out.outputText.replace(/from '\.\/(\w+)'/g, "from './$1.mjs'")
		);
	}
	const r = await import(pathToFileURL(join(dir, 'redact.mjs')).href);
	const secret = 'Ech"o\\ sécret+%/ünï€-42-0123456789abcdef';
	const secrets = [{ name: 'client_secret', value: secret }];

	/** @param {string} responseBody */
	const exchange = (responseBody) => ({
		id: '1',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://svc.example/oauth2/token',
			httpVersion: '1.1',
			headers: [
				['Host', 'svc.example'],
				['User-Agent', 'feed-reader-oauth-playground/0.1'],
				['Accept', 'application/json'],
				['Content-Type', 'application/x-www-form-urlencoded'],
				['Content-Length', '300']
			],
			body: `code=eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJjb2RlIn0.Zm9v&redirect_uri=http%3A%2F%2F127.0.0.1%3A5173%2Fcallback&client_id=sandbox-rw&client_secret=${encodeURIComponent(secret)}&scope=&grant_type=authorization_code`
		},
		response: {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers: [
				['Content-Type', 'application/json'],
				['Cache-Control', 'no-store'],
				['X-Reader-Zone1-Usage', '12'],
				['X-Reader-Zone1-Limit', '5000']
			],
			body: responseBody,
			truncated: false
		},
		timing: { total: 12 },
		findings: [
			{ level: 'info', code: 'ok', message: 'The token endpoint answered 200 with a token.' }
		]
	});
	const tokenBody = JSON.stringify({
		access_token: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJhdCIsInN1YiI6InUxIiwianRpIjoiYTEifQ.QUNDRVNT',
		token_type: 'Bearer',
		expires_in: 3600,
		refresh_token: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJydCIsInN1YiI6InUxIiwianRpIjoicjEifQ.UkVGUkVT',
		scope: 'read'
	});
	const items = [];
	for (let i = 0; JSON.stringify(items).length < 100_000; i++)
		items.push({
			id: `tag:google.com,2005:reader/item/${i.toString(16).padStart(16, '0')}`,
			title: `Item ${i}: a headline of ordinary length`,
			published: 1700000000 + i
		});
	const big = JSON.stringify({ items }, null, 2);
	const hex = [...new TextEncoder().encode(secret)]
		.map((b) => b.toString(16).padStart(2, '0'))
		.join('');
	const echo = JSON.stringify({
		raw: secret,
		pct: encodeURIComponent(secret),
		json: JSON.stringify(secret),
		b64: btoa(String.fromCharCode(...new TextEncoder().encode(secret))),
		hex,
		twice: encodeURIComponent(encodeURIComponent(secret))
	});

	/**
	 * Median microseconds per call of `fn`, over `rounds` rounds of `n` calls.
	 * @param {(i: number, k: number) => unknown} fn @param {number} n
	 */
	function time(fn, n, rounds = 9) {
		const per = [];
		for (let k = 0; k < rounds; k++) {
			const t0 = process.hrtime.bigint();
			for (let i = 0; i < n; i++) fn(i, k);
			per.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
		}
		per.sort((a, b) => a - b);
		return per[Math.floor(per.length / 2)] ?? NaN;
	}

	const small = exchange(tokenBody);
	const large = exchange(big);
	const echoed = exchange(echo);
	const redactors = r.createRedactors();
	/** @param {unknown} ex @param {{ name: string, value: string }[]} s */
	const redact = (ex, s = secrets) => redactors.of(s).exchange(ex);
	redact(small); // warm up, and the pattern is kept
	/** @type {[string, number][]} */
	const rows = [
		['redact a token exchange (2 KB), no copy', time(() => redact(small), 2000)],
		['redact an exchange with a 100 KB body, no copy', time(() => redact(large), 20)],
		['redact an exchange echoing the secret 6 ways', time(() => redact(echoed), 500)],
		// Last: the new secrets push the one above out of the kept matchers.
		[
			'build a new secret’s pattern',
			time(
				(i, k) => redactors.of([{ name: 'client_secret', value: `${secret}-${k}-${i}` }]).text('x'),
				20
			)
		],
		[
			'a new secret: build, then redact a token exchange',
			time((i, k) => redact(small, [{ name: 'client_secret', value: `${secret}-${k}-n${i}` }]), 10)
		]
	];
	for (const [what, us] of rows) console.log(`${what.padEnd(50)} ${us.toFixed(1).padStart(10)} µs`);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
