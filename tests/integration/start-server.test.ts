/**
 * The helper that starts the built server for the tests, the bench and the load script
 * (scripts/lib/server.js) hands back a server only once that server is the one answering: its port
 * is picked free, then given to the new process, and in between another file's server may take it.
 */
import http from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { listen } from '../helpers/listen';

const impostors: http.Server[] = [];
const started: TestServer[] = [];

afterEach(async () => {
	for (const s of started.splice(0)) await s.stop();
	for (const s of impostors.splice(0)) await new Promise((ok) => s.close(ok));
});

describe('starting the built server', () => {
	test('a port another server took in between is never handed back as this one', async () => {
		// Another server on the port, answering /healthz as the playground would.
		const other = http.createServer((_req, res) => res.end('ok'));
		impostors.push(other);
		const { port } = await listen(other);
		const attempt = startServer({}, port).then((s) => {
			started.push(s);
			return s;
		});
		await expect(attempt).rejects.toThrow(/exited early[\s\S]*cannot listen/);
	});

	test('the server it hands back is the one it started', async () => {
		const s = await startServer({});
		started.push(s);
		const res = await fetch(`${s.url}/healthz`);
		expect(res.status).toBe(200);
		expect(s.logs()).toContain(`OAuth playground: ${s.url}/`);
	});
});
