/**
 * echo: over real HTTP, a token endpoint on a loopback port echoes the client secret in every
 * encoding redaction covers (JSON and `\uXXXX` JSON extra fields, lower-case percent-encoding,
 * form encoding, base64 and base64url at each alignment, HTTP Basic, hex, HTML character
 * references, percent-encoding twice, JSON inside a JSON string) in its headers, status line,
 * body and the redirect back. Nothing the playground answers (page HTML, `__data.json`, the actions'
 * JSON) nor any export made from what it answered holds the secret in any of those encodings.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import { startEchoServer, type EchoServer } from '../helpers/echo';
import { copiesIn } from '../helpers/copies';
import { toMarkdown } from '../../src/lib/exchange/markdown';
import { toHar } from '../../src/lib/exchange/har/export';
import { toCurlScript } from '../../src/lib/exchange/curl';
import type { Exchange } from '../../src/lib/exchange/types';

// Quote, backslash, space, %, +, /, non-ASCII of 2 and 3 UTF-8 bytes: every encoding differs.
const SECRET = 'Ech"o\\ sécret+%/ünï€-42';

let srv: TestServer;
let echo: EchoServer;

beforeAll(async () => {
	echo = await startEchoServer();
	srv = await startServer();
});
afterAll(async () => {
	await srv?.stop();
	await echo?.close();
});

test('echo: a token endpoint that echoes the secret in every encoding leaks it into no page data, action answer or export', async () => {
	const c = new Client(srv.url);
	const saved = await c.action('setup', {
		base_url: echo.url,
		client_id: 'echo-app',
		client_secret: SECRET,
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'false'
	});
	expect(saved.type).toBe('success');
	const exchanges: Exchange[] = [];
	for (let round = 0; round < 2; round++) {
		// The second round's redirect back carries the secret the first token request sent.
		if (round) await c.action('restart');
		const consent = await c.fetch(consentUrlFrom(await c.page()));
		await c.fetch(consent.res.headers.get('location')!);
		const ex = await c.action('exchange');
		exchanges.push(...(ex.data.exchanges as Exchange[]));
	}
	// The page load after the second redirect back hands over its recorded exchange (the outbox).
	const afterCallback = await c.fetch(`/__data.json?flow=${c.flow}`);
	expect(afterCallback.body).toContain('/callback?code=echo-code');
	const [tokenEx] = exchanges;
	expect(tokenEx!.response!.status).toBe(200);
	expect(tokenEx!.redactions?.map((r) => r.what)).toContain(
		'client_secret (echoed in the response body)'
	);
	// The re-encoded echoes arrived, and each is <redacted> where it stood.
	const echoed = Object.fromEntries(tokenEx!.response!.headers);
	for (const k of ['hex', 'html_decimal', 'html_hex', 'percent_twice', 'json_in_json_u'])
		expect(echoed[`x-echo-${k}`], k).toBe('<redacted>');
	const answer = JSON.parse(tokenEx!.response!.body);
	expect(answer.echo_html).toBe('<redacted>');
	expect(JSON.parse(answer.echo_json_in_json)).toEqual({ client_secret: '<redacted>' });
	for (const step of ['refresh', 'userinfo', 'secret']) {
		const r = await c.action(step);
		exchanges.push(...(r.data.exchanges as Exchange[]));
	}
	// The client secret check went too: the echo service answers it as any token request.
	expect(exchanges.map((e) => `${e.step} ${e.response?.status}`)).toEqual([
		'exchange 200',
		'exchange 200',
		'refresh 200',
		'userinfo 200',
		'secret 200'
	]);
	// Paste-back mode: the address a redirect URI received, with the secret echoed in it.
	await c.action('restart');
	const pasted = await c.action('pasteback', {
		pasted: `?code=x&state=y&echo=${encodeURIComponent(SECRET)}`
	});
	expect(pasted.type).toBe('success');
	exchanges.push(...(pasted.data.exchanges as Exchange[]));

	const data = await c.fetch(`/__data.json?flow=${c.flow}`);
	expect(data.res.status).toBe(200);
	expect(data.body).toContain('echo_base64_2');
	const page = await c.page();
	expect(page).toContain('echo-access-0123456789');

	const found: string[] = [];
	for (const s of c.seen.filter((s) => s.url.startsWith(srv.url)))
		for (const name of copiesIn(SECRET, `${s.headers}\n${s.body}`))
			found.push(`${name} in ${s.url}`);
	const exports = {
		Markdown: toMarkdown(exchanges),
		HAR: JSON.stringify(toHar(exchanges)),
		curl: toCurlScript(exchanges),
		'Markdown with tokens': toMarkdown(exchanges, { includeTokens: true })
	};
	for (const [name, text] of Object.entries(exports))
		for (const enc of copiesIn(SECRET, text)) found.push(`${enc} in the ${name} export`);
	expect(found).toEqual([]);
});
