/**
 * The flow cookies against cookies the playground did not set, over real HTTP. Cookies do not
 * separate ports, and a sibling host can set a cookie for a shared parent domain, so another app can
 * put a `pg_flow_<id>`, a stray chunk or garbage next to the user's own: that must never wipe or
 * break the user's flow. Under https the session lives in `__Host-` cookies (Secure, Path=/, no Domain),
 * which no other host or port can set, and plain-named ones are ignored.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { actionHeaders, takeCookies } from '../../scripts/lib/client.js';
import { consentUrlFrom } from '../helpers/client';

/** The flow every request here runs, and its cookie's name. */
const FLOW = 'cookieTestFlow01';
const NAME = `pg_flow_${FLOW}`;
const PAGE = `/?flow=${FLOW}`;
const action = (name: string) => `/?flow=${FLOW}&/${name}`;

let plain: TestServer;
let secure: TestServer;
/** The public origin of `secure`: https behind a TLS proxy, on the loopback address the test uses. */
let securePublic: string;

beforeAll(async () => {
	const port = await freePort();
	securePublic = `https://127.0.0.1:${port}`;
	[plain, secure] = await Promise.all([
		startServer({ PLAYGROUND_LOG: 'off' }),
		startServer({ PLAYGROUND_LOG: 'off', ORIGIN: securePublic }, port)
	]);
});
afterAll(async () => {
	await Promise.all([plain?.stop(), secure?.stop()]);
});

/** One request with exactly this Cookie header; the cookies it sets are taken into `jar`. */
async function send(
	srv: TestServer,
	origin: string,
	path: string,
	cookie: string,
	init: RequestInit = {},
	jar?: Map<string, string>
) {
	const headers = new Headers(init.headers);
	if (cookie) headers.set('cookie', cookie);
	const res = await fetch(srv.url + path, { ...init, headers, redirect: 'manual' });
	const setCookies = res.headers.getSetCookie();
	if (jar) takeCookies(jar, setCookies);
	return { res, body: await res.text(), setCookies };
}

/** A user who chose the sandbox preset: the cookies the server set, by name. */
async function signedUp(srv: TestServer, origin: string): Promise<Map<string, string>> {
	const jar = new Map<string, string>();
	const { res } = await send(
		srv,
		origin,
		action('preset'),
		'',
		{ method: 'POST', headers: actionHeaders(origin), body: 'preset=sandbox-rw' },
		jar
	);
	expect(res.status).toBe(200);
	return jar;
}

const header = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${v}`).join('; ');

/** The page shows the user's own session (its consent URL), no notice, and clears no cookie. */
async function stillSignedIn(srv: TestServer, origin: string, cookie: string) {
	const { res, body, setCookies } = await send(srv, origin, PAGE, cookie, {
		headers: { accept: 'text/html' }
	});
	expect(res.status).toBe(200);
	expect(body).not.toContain('role="alert"');
	expect(consentUrlFrom(body)).toContain('client_id=sandbox-rw');
	expect(setCookies).toEqual([]);
}

describe('foreign and extra cookies are ignored, never a logout', () => {
	test('cookie tossing: a stray pg_flow_<id>.1 (another app on the same host) does not log the user out', async () => {
		const jar = await signedUp(plain, plain.url);
		expect([...jar.keys()]).toEqual([NAME]);
		await stillSignedIn(plain, plain.url, header([...jar, [`${NAME}.1`, 'tossed-by-another-app']]));
		await stillSignedIn(plain, plain.url, header([...jar, [`${NAME}.7`, 'x']]));
	});

	test('cookie shadowing: a second pg_flow_<id> sent first (another app, a parent-domain cookie) does not log the user out', async () => {
		const jar = await signedUp(plain, plain.url);
		const own = jar.get(NAME)!;
		for (const foreign of ['garbage', 'eyJhbGciOiJkaXIifQ..AAAA.BBBB.CCCC', ''])
			await stillSignedIn(
				plain,
				plain.url,
				header([
					[NAME, foreign],
					[NAME, own]
				])
			);
		// And when the foreign one comes second.
		await stillSignedIn(
			plain,
			plain.url,
			header([
				[NAME, own],
				[NAME, 'garbage']
			])
		);
	});

	test("cookie tossing: another flow's sealed cookie put under this flow's name opens nothing, and says so", async () => {
		// The attacker's flow, sealed by this very server, tossed under the victim's flow name.
		const theirs = await signedUp(plain, plain.url);
		const victim = 'victimsOwnFlow01';
		const { res, body, setCookies } = await send(
			plain,
			plain.url,
			`/?flow=${victim}`,
			header([[`pg_flow_${victim}`, theirs.get(NAME)!]]),
			{ headers: { accept: 'text/html' } }
		);
		expect(res.status).toBe(200);
		expect(body).not.toContain('client_id=sandbox-rw');
		expect(body).toContain('sealed for another flow');
		// The tossed value is replaced by a fresh flow, so the notice is said once.
		expect(setCookies.some((c) => c.startsWith(`pg_flow_${victim}=`))).toBe(true);
	});

	test("a form action with a shadowing cookie keeps working on the user's own session", async () => {
		const jar = await signedUp(plain, plain.url);
		const cookie = header([[NAME, 'planted'], ...jar]);
		const { res, body } = await send(plain, plain.url, action('restart'), cookie, {
			method: 'POST',
			headers: actionHeaders(plain.url),
			body: ''
		});
		expect(res.status, body).toBe(200);
		expect(body).toContain('restarted');
	});
});

describe('__Host- cookies under https', () => {
	test('the session cookies are __Host- cookies: Secure, Path=/, no Domain', async () => {
		const { setCookies } = await send(secure, securePublic, action('preset'), '', {
			method: 'POST',
			headers: actionHeaders(securePublic),
			body: 'preset=sandbox-rw'
		});
		expect(setCookies.length).toBeGreaterThan(0);
		for (const c of setCookies) {
			expect(c).toMatch(new RegExp(`^__Host-${NAME}(\\.\\d)?=`));
			expect(c).toMatch(/; Secure/i);
			expect(c).toMatch(/; Path=\/(;|$)/);
			expect(c).not.toMatch(/Domain=/i);
		}
	});

	test('cookie injection: under https a plain pg_flow_<id> (which a sibling host can set) is ignored', async () => {
		const jar = await signedUp(secure, securePublic);
		const own = [...jar];
		// The attacker's own valid session, sealed by the same server, under the plain name.
		const attacker = await signedUp(plain, plain.url);
		const planted = header([[NAME, attacker.get(NAME)!], ...own]);
		await stillSignedIn(secure, securePublic, planted);
		// With only the planted one, the user has no session at all: nothing of the attacker's is used.
		const { body } = await send(secure, securePublic, PAGE, header([[NAME, attacker.get(NAME)!]]), {
			headers: { accept: 'text/html' }
		});
		expect(body).not.toContain('data-testid="consent-url"');
	});

	test('the theme cookie is __Host-pg_theme under https, pg_theme over http', async () => {
		const theme = async (srv: TestServer, origin: string, cookie: string) =>
			/data-theme="(\w+)"/.exec(
				(await send(srv, origin, '/', cookie, { headers: { accept: 'text/html' } })).body
			)?.[1];
		expect(await theme(secure, securePublic, '__Host-pg_theme=dark')).toBe('dark');
		expect(await theme(secure, securePublic, 'pg_theme=dark')).toBe('system');
		expect(await theme(plain, plain.url, 'pg_theme=dark')).toBe('dark');
	});
});

test('a form posted without script shows the session its action just saved, not the one it sent', async () => {
	const jar = await signedUp(plain, plain.url); // the sandbox-rw preset
	const { res, body } = await send(plain, plain.url, action('preset'), header([...jar]), {
		method: 'POST',
		headers: {
			origin: plain.url,
			accept: 'text/html',
			'content-type': 'application/x-www-form-urlencoded'
		},
		body: 'preset=sandbox-ro'
	});
	expect(res.status).toBe(200);
	expect(consentUrlFrom(body)).toContain('client_id=sandbox-ro');
});
