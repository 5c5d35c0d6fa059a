/**
 * A request path that is not valid percent-encoding (`%ZZ`, a cut UTF-8 sequence): a 400 with the
 * reason in JSON, logged as one request line like any other, not as a stack trace.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { rawRequest } from '../helpers/raw';

let srv: TestServer;
beforeAll(async () => {
	srv = await startServer();
});
afterAll(() => srv?.stop());

test.each(['/sandbox/reader/api/0/stream/contents/%ZZ', '/%E0%A4%A', '/callback/%ZZ'])(
	'a malformed path (%s) is a 400 with a JSON reason, and the log has its request line, no stack trace',
	async (target) => {
		const res = await rawRequest(srv.port, {
			method: 'GET',
			target,
			headers: []
		});
		expect(res.status).toBe(400);
		expect(res.headers['content-type']).toMatch(/^application\/json/);
		const body = JSON.parse(res.body) as { error: string; message: string };
		expect(body.error).toBe('malformed_path');
		expect(body.message).toMatch(/percent-encoding/);
		await expect.poll(() => srv.logs()).toMatch(new RegExp(`^GET ${escape(target)} 400 `, 'm'));
		expect(srv.logs()).not.toMatch(/Failed to decode URI|^\s+at /m);
	}
);

/** `text` as a regular expression that matches it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
