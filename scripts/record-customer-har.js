// Records tests/fixtures/customer.har: what a support ticket brings, a browser's Network export of
// a customer's own application (not this playground) running the consent against the service. The
// application lives at http://app.customer.test:<port>/cb (mapped to loopback for Chromium), is
// registered "Read only" with the built-in sandbox, and asks for `read write`, so the sandbox sends
// the browser back with error=invalid_scope. The application's page also loads a script, a style
// sheet and an icon, as a real one does. Run it after a change to the sandbox's consent answers, and
// commit the file.
import http from 'node:http';
import { rmSync } from 'node:fs';
import { ensureBuild } from './ensure-build.js';
import { startServer } from './lib/server.js';
import { launchChromium } from './lib/browser.js';
import { freePort } from './free-port.js';

const OUT = 'tests/fixtures/customer.har';
const HOST = 'app.customer.test';

ensureBuild();
const appPort = await freePort();
const app = http.createServer((req, res) => {
	const path = new URL(req.url ?? '/', `http://${HOST}`).pathname;
	if (path === '/cb' || path === '/')
		res
			.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
			.end(
				'<!doctype html><title>Reader App</title><link rel="stylesheet" href="/app.css"><script src="/app.js"></script><h1>Reader App</h1><p>Signing you in…</p>'
			);
	else if (path === '/app.css') res.writeHead(200, { 'Content-Type': 'text/css' }).end('h1{}');
	else if (path === '/app.js')
		res.writeHead(200, { 'Content-Type': 'text/javascript' }).end('void 0;');
	else res.writeHead(404).end();
});
await new Promise((ok) => app.listen(appPort, '127.0.0.1', () => ok(undefined)));
const redirect = `http://${HOST}:${appPort}/cb`;
const server = await startServer({
	env: {
		PLAYGROUND_LOG: 'off',
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'reader-app',
				client_secret: 'reader-app-secret-0123',
				name: 'Reader App',
				redirect_uris: [redirect],
				default_scope: 'read'
			}
		])
	}
});
const browser = await launchChromium({ hostResolverRules: `MAP ${HOST} 127.0.0.1` });
try {
	rmSync(OUT, { force: true });
	const context = await browser.newContext({ recordHar: { path: OUT, content: 'embed' } });
	const page = await context.newPage();
	await page.goto(`http://${HOST}:${appPort}/`);
	const consent = new URL(`${server.url}/sandbox/oauth2/auth`);
	for (const [k, v] of Object.entries({
		client_id: 'reader-app',
		redirect_uri: redirect,
		response_type: 'code',
		scope: 'read write',
		state: 'af0ifjsldkj-customer-state'
	}))
		consent.searchParams.set(k, v);
	await page.goto(consent.href);
	await page.waitForURL((u) => u.hostname === HOST && u.searchParams.has('error'));
	await context.close();
	console.log(`Saved ${OUT}`);
} finally {
	await browser.close();
	await server.stop();
	app.close();
}
