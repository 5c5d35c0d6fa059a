/**
 * DNS rebinding in Chromium: a page served under an attacker's name, which then resolves to this
 * machine (Chromium's --host-resolver-rules maps rebind.test to 127.0.0.1), calls the playground as
 * its own origin. The host check refuses every request under that name, so the page can neither
 * save a setup nor make the server fetch a private URL, and the playground itself shows a 403 page
 * that names the setting.
 */
import http from 'node:http';
import { expect } from 'vitest';
import { listen } from '../helpers/listen';
import { launch, shot } from '../helpers/browser';
import { watch, type Traffic } from '../helpers/e2e';
import { e2eTest } from '../helpers/fixtures';

/** The attacker's page: it saves a setup pointing at a private URL, then asks for the check. */
const ATTACK = (privateUrl: string) => `<!doctype html><html><body><pre id="out"></pre><script>
(async () => {
	const form = (f) => ({ method: 'POST', headers: { 'x-sveltekit-action': 'true',
		'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f) });
	const out = [];
	for (const [name, fields] of [['setup', { base_url: ${JSON.stringify(privateUrl)},
		client_id: 'x', client_secret: 'y', scope: 'read', redirect_uri: location.origin + '/callback' }],
		['check', {}]]) {
		try {
			const res = await fetch('/?/' + name, form(fields));
			out.push(name + ' ' + res.status + ' ' + (await res.text()));
		} catch (e) {
			out.push(name + ' failed: ' + e);
		}
	}
	document.getElementById('out').textContent = out.join('\\n');
	document.body.dataset.done = 'true';
})();
</script></body></html>`;

const test = e2eTest({ PLAYGROUND_LOG: 'off' })
	// A Chromium of the file's own, which resolves rebind.test to this machine.
	// eslint-disable-next-line no-empty-pattern
	.extend('mapped', { scope: 'file' }, async ({}, { onCleanup }) => {
		const browser = await launch({ hostResolverRules: 'MAP rebind.test 127.0.0.1' });
		onCleanup(() => browser.close());
		return browser;
	})
	// A private service, and the attacker's server: the first request (its page) it answers itself;
	// after the name has rebound, every later request under the same origin reaches the
	// playground, with the Host header the browser sent.
	.extend('rebinding', { scope: 'file' }, async ({ srv }, { onCleanup }) => {
		const reached: string[] = [];
		const priv = http.createServer((req, res) => {
			reached.push(`${req.method} ${req.url}`);
			res.end('{"private":"data"}');
		});
		const { url: privateUrl } = await listen(priv);
		const rebinder = http.createServer((req, res) => {
			if (req.url === '/attack') {
				res.setHeader('content-type', 'text/html');
				return res.end(ATTACK(privateUrl));
			}
			const upstream = http.request(
				{
					host: '127.0.0.1',
					port: srv.port,
					path: req.url,
					method: req.method,
					headers: req.headers
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				}
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		});
		const { port } = await listen(rebinder);
		onCleanup(() => {
			priv.close();
			rebinder.close();
		});
		return { reached, port };
	});

test('rebinding: a page under another host name cannot drive the local server', async ({
	srv,
	mapped,
	rebinding
}) => {
	const { reached, port: rebinderPort } = rebinding;
	const context = await mapped.newContext();
	const traffic: Traffic = { problems: [], bodies: [], urls: [] };
	const page = await watch(await context.newPage(), traffic);
	const attacker = `http://rebind.test:${rebinderPort}`;
	await page.goto(`${attacker}/attack`);
	await page.locator('body[data-done="true"]').waitFor();
	const lines = (await page.locator('#out').textContent())!.split('\n');
	expect(lines[0]).toMatch(/^setup 403 \{"error":"host_not_served"/);
	expect(lines[1]).toMatch(/^check 403 \{"error":"host_not_served"/);
	expect(lines[0]).toContain('PLAYGROUND_SERVED_HOSTS');
	expect(reached).toEqual([]);

	// The playground itself, opened under that name on its own port: the 403 page, naming the setting.
	const res = await page.goto(`http://rebind.test:${srv.port}/`);
	expect(res?.status()).toBe(403);
	await expect(
		page.getByRole('heading', { name: 'Host name not served' }).textContent()
	).resolves.toBe('Host name not served');
	await expect(page.locator('body').textContent()).resolves.toContain(
		'Setting: ORIGIN or PLAYGROUND_SERVED_HOSTS'
	);
	await shot(page, 'rebinding-403');

	// The same browser under the server's own name gets the playground.
	await page.goto(`http://127.0.0.1:${srv.port}/`);
	await page.locator('main[data-ready="true"]').waitFor();
	await context.close();

	// The only errors are the ones this test causes: the 403 loads, and Chromium's note that it
	// ignores the Cross-Origin-Opener-Policy header on an http origin under a name other than
	// localhost (the 403 page carries the headers every answer gets).
	expect(
		traffic.problems.filter(
			(p) =>
				!/status of 403/.test(p) && !/Cross-Origin-Opener-Policy header has been ignored/.test(p)
		)
	).toEqual([]);
});
