/**
 * Session key rotation (PLAYGROUND_SESSION_KEY=new,old): a server holding both keys reads a cookie
 * sealed under the old one and seals what it writes under the new one; a server with only the new
 * key reads the re-sealed cookie and refuses the old one, with the notice.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { sessionKey, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';

const OLD = sessionKey('rotation-old-key');
const NEW = sessionKey('rotation-new-key');
const running: TestServer[] = [];

async function serve(key: string): Promise<TestServer> {
	const s = await startServer({ PLAYGROUND_SESSION_KEY: key, PLAYGROUND_LOG: 'off' });
	running.push(s);
	return s;
}

afterEach(async () => {
	for (const s of running.splice(0)) await s.stop();
});

/** The same cookie jar, sent to another server. */
function carry(from: Client, to: TestServer): Client {
	const c = new Client(to.url, { flow: from.flow });
	c.jar = new Map(from.jar);
	return c;
}

describe('key rotation', () => {
	test('new,old reads a cookie sealed under old, and re-seals it under new', async () => {
		const before = await serve(OLD);
		const c = new Client(before.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const consent = consentUrlFrom(await c.page());
		const sealedUnderOld = c.jar.get(`pg_flow_${c.flow}`)!;

		const rotated = carry(c, await serve(`${NEW},${OLD}`));
		const html = await rotated.page();
		expect(html).not.toContain('could not be read');
		expect(html).toContain('A secret is set');
		expect(new URL(consentUrlFrom(html)).searchParams.get('state')).toBe(
			new URL(consent).searchParams.get('state')
		);
		// A write seals under the new key.
		expect((await rotated.action('restart')).type).toBe('success');
		expect(rotated.jar.get(`pg_flow_${c.flow}`)).not.toBe(sealedUnderOld);

		const onlyNew = await serve(NEW);
		const resealed = carry(rotated, onlyNew);
		const page = await resealed.page();
		expect(page).not.toContain('could not be read');
		expect(page).toContain('A secret is set');
		expect(page).toContain('client_id=sandbox-rw');

		const stale = carry(c, onlyNew); // still the cookie sealed under the old key
		const refused = await stale.page();
		expect(refused).toContain('could not be read');
		expect(refused).not.toContain('client_id=sandbox-rw');
	});
});

describe('key strength', () => {
	test('weak key: the server refuses to start with PLAYGROUND_SESSION_KEY=a, naming the variable', async () => {
		// A one-letter key was hashed and accepted: anyone could seal a cookie offline that it opened.
		await expect(serve('a')).rejects.toThrow(
			/PLAYGROUND_SESSION_KEY: the key is 1 byte, at least 32 are needed; generate one with `openssl rand -base64 32`/
		);
		await expect(serve(`${NEW},too-short-old-key`)).rejects.toThrow(
			/PLAYGROUND_SESSION_KEY: key 2 of 2 is \d+ bytes, at least 32 are needed/
		);
	});

	test('a key from `openssl rand -base64 32` (standard base64, with + / =) serves a flow', async () => {
		const s = await serve('Mb7At/iHwT/f90bD9sGOLUSwJ171hlshWZE3z/wLVo0=');
		const c = new Client(s.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		expect(consentUrlFrom(await c.page())).toContain('client_id=sandbox-rw');
	});
});
