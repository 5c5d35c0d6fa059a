import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { sealJwe } from '$lib/server/session/jwe';
import { FakeCookies } from './fake-cookies';
import { sessionKeys } from '$lib/keys.server';
import type { Keyring, Session } from '$lib/server/session/session';

const KEY = Buffer.alloc(32, 9);
const OTHER_KEY = Buffer.alloc(32, 4);
const NOW_S = 1_800_000_000;
const DAY_S = 24 * 3600;

/** The keys and clock the requests below carry (as an app's would), set by `load`. */
let ring: Keyring;

/**
 * The session module with seal and open bound to an app's keys, given as raw base64url so tests can
 * seal payloads themselves; the clock is the faked Date.
 */
async function load(keys = KEY.toString('base64url')) {
	const m = await import('$lib/server/session/session');
	ring = { keys: sessionKeys(keys.split(',')), clock: () => Date.now() };
	const own = ring;
	return {
		...m,
		seal: (session: Session, flow: string) => m.seal(session, flow, own),
		open: (token: string, flow: string) => m.open(token, flow, own)
	};
}

/** A payload sealed as the server seals a flow's: bound to `flow` (FLOW unless said). */
const sealPayload = (payload: object, key: Uint8Array = KEY, flow = FLOW) =>
	sealJwe(new TextEncoder().encode(JSON.stringify({ f: flow, ...payload })), key);

const at = (seconds: number) => vi.setSystemTime(seconds * 1000);

/** The flow every test here reads and writes, and its cookie's name. */
const FLOW = 'unitTestFlow-001';
const C = `pg_flow_${FLOW}`;
/** A request of that flow that carries no Cookie header (the jar stands for what `Cookies` gives). */
const none = (https = false) => ({ header: '', https, flow: FLOW, ...ring });

/** The request a browser holding `jar` sends: its Cookie header, over https or not. */
const sent = (jar: FakeCookies, https: boolean) => ({
	header: [...jar.jar].map(([k, v]) => `${k}=${v}`).join('; '),
	https,
	flow: FLOW,
	...ring
});

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['Date'] });
	at(NOW_S);
});
afterEach(() => {
	vi.useRealTimers();
});

describe('reading the session cookies', () => {
	test('no session cookie is an empty session, without a notice', async () => {
		const { readSession } = await load();
		expect(await readSession(new FakeCookies({ other: 'x' }), none())).toEqual({ v: 1 });
	});

	test('a cookie that does not open is an empty session with a notice', async () => {
		const { readSession } = await load();
		const read = await readSession(
			new FakeCookies({ [C]: sealPayload({ v: 1 }, OTHER_KEY) }),
			none()
		);
		expect(Object.keys(read).sort()).toEqual(['notice', 'v']);
		expect(read.v).toBe(1);
		expect(read.notice).toEqual(expect.any(String));
		expect(read.notice).not.toBe('');
	});

	test('the chunks pg_flow_<id>, pg_flow_<id>.1, … are joined in order; at most eight are read', async () => {
		const { readSession } = await load();
		const token = sealPayload({ v: 1, client_secret: 'joined', iat: NOW_S });
		const split = (n: number) => {
			const size = Math.ceil(token.length / n);
			const jar: Record<string, string> = {};
			for (let i = 0; i < n; i++)
				jar[i === 0 ? C : `${C}.${i}`] = token.slice(i * size, (i + 1) * size);
			return jar;
		};
		expect(await readSession(new FakeCookies(split(8)), none())).toEqual({
			v: 1,
			client_secret: 'joined'
		});
		const nine = await readSession(new FakeCookies(split(9)), none());
		expect(nine.client_secret).toBeUndefined();
		expect(nine.notice).toEqual(expect.any(String));
	});
});

describe('writing the session cookies', () => {
	test('a small flow is one HttpOnly, SameSite=Lax cookie named pg_flow_<id> for a day, Secure and __Host- under https', async () => {
		const { readSession, writeSession } = await load();
		for (const secure of [true, false]) {
			const jar = new FakeCookies();
			await writeSession(jar, { v: 1, client_secret: 'kept' }, secure, none(secure));
			expect(jar.sets).toHaveLength(1);
			expect(jar.sets[0]!.name).toBe(secure ? `__Host-${C}` : C);
			expect(jar.sets[0]!.opts).toEqual({
				path: '/',
				httpOnly: true,
				sameSite: 'lax',
				secure,
				maxAge: DAY_S
			});
			expect(jar.deletes).toEqual([]);
			expect(await readSession(jar, sent(jar, secure))).toEqual({ v: 1, client_secret: 'kept' });
		}
	});

	test('the notice is not kept', async () => {
		const { readSession, writeSession } = await load();
		const jar = new FakeCookies();
		await writeSession(jar, { v: 1, client_secret: 'a', notice: 'shown once' }, false, none());
		expect(await readSession(jar, none())).toEqual({ v: 1, client_secret: 'a' });
	});

	test('a large session is split into cookies of at most 3500 characters and read back whole', async () => {
		const { readSession, writeSession } = await load();
		const jar = new FakeCookies();
		const session = { v: 1 as const, client_secret: 'z'.repeat(7000) };
		await writeSession(jar, session, false, none());
		expect(jar.sets.map((s) => s.name)).toEqual([C, `${C}.1`, `${C}.2`]);
		expect(jar.sets.slice(0, -1).map((s) => s.value.length)).toEqual([3500, 3500]);
		expect(jar.sets.at(-1)!.value.length).toBeGreaterThan(0);
		expect(jar.sets.at(-1)!.value.length).toBeLessThanOrEqual(3500);
		for (const s of jar.sets) expect(s.opts.httpOnly).toBe(true);
		expect(await readSession(jar, none())).toEqual(session);
	});

	test('a session sealing to exactly two chunks is two cookies, with no empty third', async () => {
		const { seal, writeSession, readSession } = await load();
		let n = 4000;
		while ((await seal({ v: 1, client_secret: 'w'.repeat(n) }, FLOW)).length < 7000) n++;
		expect((await seal({ v: 1, client_secret: 'w'.repeat(n) }, FLOW)).length).toBe(7000);
		const jar = new FakeCookies();
		await writeSession(jar, { v: 1, client_secret: 'w'.repeat(n) }, false, none());
		expect(jar.sets.map((s) => [s.name, s.value.length])).toEqual([
			[C, 3500],
			[`${C}.1`, 3500]
		]);
		expect((await readSession(jar, none())).client_secret).toHaveLength(n);
	});

	test('a smaller session deletes the chunks left over from a larger one, and nothing else', async () => {
		const { readSession, writeSession } = await load();
		const jar = new FakeCookies({ other: 'keep me', [`${C}.8`]: 'not a chunk' });
		await writeSession(jar, { v: 1, client_secret: 'z'.repeat(7000) }, false, none());
		expect(jar.jar.has(`${C}.2`)).toBe(true);
		await writeSession(jar, { v: 1, client_secret: 'short' }, false, none());
		expect(jar.deletes).toEqual([
			{ name: `${C}.1`, opts: { path: '/', secure: false } },
			{ name: `${C}.2`, opts: { path: '/', secure: false } }
		]);
		expect([...jar.jar.keys()].sort()).toEqual(['other', C, `${C}.8`]);
		expect(await readSession(jar, none())).toEqual({ v: 1, client_secret: 'short' });
	});

	test('a flow whose cookies take exactly the flow budget is kept; a longer one is refused with 400 and nothing is written', async () => {
		const { seal, writeSession, readSession } = await load();
		const { FLOW_BUDGET, cookieBytes } = await import('$lib/server/session/flow-cap');
		/** What a flow's cookies add to the Cookie header: each chunk's name, value and separators. */
		const bytesOf = async (n: number) => {
			const sealed = await seal({ v: 1, client_secret: 'q'.repeat(n) }, FLOW);
			let bytes = 0;
			for (let i = 0; i * 3500 < sealed.length; i++)
				bytes += cookieBytes(i ? `${C}.${i}` : C, sealed.slice(i * 3500, (i + 1) * 3500));
			return bytes;
		};
		let n = 8000;
		while ((await bytesOf(n + 1)) <= FLOW_BUDGET) n++;
		expect(await bytesOf(n)).toBeGreaterThan(FLOW_BUDGET - 3);
		const exact = new FakeCookies();
		await writeSession(exact, { v: 1, client_secret: 'q'.repeat(n) }, false, none());
		expect(exact.sets.reduce((b, s) => b + cookieBytes(s.name, s.value), 0)).toBe(await bytesOf(n));
		expect((await readSession(exact, none())).client_secret).toHaveLength(n);

		const over = new FakeCookies();
		await expect(
			writeSession(over, { v: 1, client_secret: 'q'.repeat(n + 1) }, false, none())
		).rejects.toMatchObject({ status: 400 });
		expect(over.sets).toEqual([]);
	});

	test('the budget is met before a flow would need more chunks than the reader knows', async () => {
		const { CHUNK, MAX_CHUNKS } = await load();
		const { FLOW_BUDGET } = await import('$lib/server/session/flow-cap');
		// The cap is the only check made when writing: the chunks' values alone, with no names,
		// would pass the budget before a ninth chunk is cut.
		expect(CHUNK * MAX_CHUNKS).toBeGreaterThan(FLOW_BUDGET);
	});

	test('a flow dropped loses each of the eight chunk cookies the request carries, and nothing else', async () => {
		const { dropFlow } = await load();
		const jar = new FakeCookies({
			[C]: 'a',
			[`${C}.1`]: 'b',
			[`${C}.7`]: 'c',
			[`${C}.8`]: 'not a chunk',
			other: 'x'
		});
		dropFlow(jar, FLOW, sent(jar, false));
		expect(jar.deletes).toEqual([
			{ name: C, opts: { path: '/', secure: false } },
			{ name: `${C}.1`, opts: { path: '/', secure: false } },
			{ name: `${C}.7`, opts: { path: '/', secure: false } }
		]);
		const secure = new FakeCookies({ [C]: 'a', [`__Host-${C}.2`]: 'b' });
		dropFlow(secure, FLOW, sent(secure, true));
		expect(secure.deletes).toEqual([{ name: `__Host-${C}.2`, opts: { path: '/', secure: true } }]);
	});
});

describe('opening a sealed session', () => {
	test('a session is good for a day from sealing, and not a second longer', async () => {
		const { seal, open } = await load();
		const sealed = await seal({ v: 1, client_secret: 's' }, FLOW);
		at(NOW_S + DAY_S);
		expect(await open(sealed, FLOW)).toEqual({ ok: true, session: { v: 1, client_secret: 's' } });
		at(NOW_S + DAY_S + 1);
		expect(await open(sealed, FLOW)).toEqual({ ok: false, reason: expect.any(String) });
	});

	test('a payload without a numeric iat has no age to check, and opens', async () => {
		const { open } = await load();
		expect(await open(sealPayload({ v: 1, client_secret: 'a' }), FLOW)).toEqual({
			ok: true,
			session: { v: 1, client_secret: 'a' }
		});
		expect(await open(sealPayload({ v: 1, iat: null }), FLOW)).toEqual({
			ok: true,
			session: { v: 1 }
		});
	});

	test('a payload of another version, or not JSON, is refused even under the right key', async () => {
		const { open } = await load();
		const refused = { ok: false, reason: expect.any(String) };
		expect(await open(sealPayload({ v: 2, iat: NOW_S }), FLOW)).toEqual(refused);
		expect(await open(sealPayload({ iat: NOW_S }), FLOW)).toEqual(refused);
		expect(await open(sealJwe(new TextEncoder().encode('{not json'), KEY), FLOW)).toEqual(refused);
	});

	test('the first listed key seals; the others only open', async () => {
		const first = Buffer.alloc(32, 1).toString('base64url');
		const second = Buffer.alloc(32, 2).toString('base64url');
		const both = await load(`${first},${second}`);
		const sealed = await both.seal({ v: 1 }, FLOW);
		expect((await both.open(sealPayload({ v: 1 }, Buffer.alloc(32, 2)), FLOW)).ok).toBe(true);
		expect((await (await load(first)).open(sealed, FLOW)).ok).toBe(true);
		expect((await (await load(second)).open(sealed, FLOW)).ok).toBe(false);
	});
});

describe('cookies the playground did not set', () => {
	const header = (pairs: [string, string][]) => ({
		header: pairs.map(([k, v]) => `${k}=${v}`).join('; '),
		https: false,
		flow: FLOW,
		...ring
	});
	/** The `Cookies` SvelteKit makes of a request's header: the first value of each name. */
	const asSent = ({ header }: { header: string }) => {
		const first: Record<string, string> = {};
		for (const pair of header.split('; ')) {
			const name = pair.slice(0, pair.indexOf('='));
			if (!(name in first)) first[name] = pair.slice(name.length + 1);
		}
		return new FakeCookies(first);
	};

	test('every value of a name is kept, in the order sent, decoded as Cookies decodes', async () => {
		const { cookieValues } = await load();
		expect(cookieValues('a=1; b=2;a=3; c=; d="q"; e=%41%zz; f=%41; junk')).toEqual(
			new Map([
				['a', ['1', '3']],
				['b', ['2']],
				['c', ['']],
				['d', ['q']],
				['e', ['%41%zz']],
				['f', ['A']]
			])
		);
	});

	test('candidates: longest join first, every combination of duplicates, none past a gap', async () => {
		const { candidateTokens } = await load();
		expect(candidateTokens([['a'], ['b', 'B'], ['c']])).toEqual(['abc', 'aBc', 'ab', 'aB', 'a']);
		expect(candidateTokens([['a'], [], ['c']])).toEqual(['a']);
		expect(candidateTokens([[], ['b']])).toEqual([]);
		expect(candidateTokens(Array.from({ length: 8 }, () => ['x', 'y']))).toHaveLength(64);
	});

	test('a stray extra chunk, a garbage or duplicate [C]: the session that opens is used', async () => {
		const { readSession } = await load();
		const own = sealPayload({ v: 1, client_secret: 'own', iat: NOW_S });
		for (const pairs of [
			[
				[C, own],
				[`${C}.1`, 'stray']
			],
			[
				[C, own],
				[`${C}.7`, 'stray']
			],
			[
				[C, 'garbage'],
				[C, own]
			],
			[
				[C, own],
				[C, 'garbage']
			]
		] as [string, string][][])
			expect(
				await readSession(asSent(header(pairs)), header(pairs)),
				JSON.stringify(pairs)
			).toEqual({
				v: 1,
				client_secret: 'own'
			});
	});

	test('two sessions that both open: the newer one', async () => {
		const { readSession } = await load();
		const older = sealPayload({ v: 1, client_secret: 'older', iat: NOW_S - 60 });
		const newer = sealPayload({ v: 1, client_secret: 'newer', iat: NOW_S });
		for (const pairs of [
			[
				[C, older],
				[C, newer]
			],
			[
				[C, newer],
				[C, older]
			]
		] as [string, string][][])
			expect((await readSession(asSent(header(pairs)), header(pairs))).client_secret).toBe('newer');
	});

	test('nothing opens: an empty session with the notice of the whole join', async () => {
		const { readSession } = await load();
		const expired = sealPayload({ v: 1, client_secret: 'old', iat: NOW_S - DAY_S - 1 });
		const sent = header([[C, expired]]);
		const read = await readSession(asSent(sent), sent);
		expect(read).toEqual({ v: 1, notice: 'The session had expired (older than a day).' });
	});

	test('under https only __Host- cookies are read: a plain pg_flow_<id> is ignored', async () => {
		const { readSession } = await load();
		const own = sealPayload({ v: 1, client_secret: 'own', iat: NOW_S });
		const planted = sealPayload({ v: 1, client_secret: 'planted', iat: NOW_S + 1 });
		const source = {
			header: `${C}=${planted}; __Host-${C}=${own}`,
			https: true,
			flow: FLOW,
			...ring
		};
		expect(await readSession(asSent(source), source)).toEqual({ v: 1, client_secret: 'own' });
		const onlyPlanted = { header: `${C}=${planted}`, https: true, flow: FLOW, ...ring };
		expect(await readSession(asSent(onlyPlanted), onlyPlanted)).toEqual({ v: 1 });
	});
});

test('cookies set earlier in the same request (an action before the page loads) are the ones read', async () => {
	const { readSession, writeSession } = await load();
	const old = sealPayload({ v: 1, client_secret: 'old', iat: NOW_S });
	const jar = new FakeCookies({ [C]: old });
	await writeSession(jar, { v: 1, client_secret: 'new' }, false, none());
	const sentBefore = { header: `${C}=${old}; ${C}=garbage`, https: false, flow: FLOW, ...ring };
	expect(await readSession(jar, sentBefore)).toEqual({ v: 1, client_secret: 'new' });
});

describe('the byte cap across flows', () => {
	const id = (c: string) => c.repeat(16);
	/** A sealed flow of about `kb` KB, last written at `iat`. */
	const flowOf = (flow: string, kb: number, iat: number) =>
		sealPayload({ v: 1, client_secret: 'x'.repeat(kb * 700), iat }, KEY, flow);
	/** The cookies a flow's sealed token makes, chunked as the server chunks it. */
	const chunks = (flow: string, token: string): [string, string][] =>
		Array.from({ length: Math.ceil(token.length / 3500) }, (_, i) => [
			i ? `pg_flow_${flow}.${i}` : `pg_flow_${flow}`,
			token.slice(i * 3500, (i + 1) * 3500)
		]);

	test('writing a flow that would go over drops the least recently written others, and remembers them', async () => {
		const { writeSession, readSession } = await load();
		const others = [
			...chunks(id('a'), flowOf(id('a'), 4, NOW_S - 30)), // the oldest
			...chunks(id('b'), flowOf(id('b'), 4, NOW_S - 10)),
			...chunks(id('c'), flowOf(id('c'), 2, NOW_S - 20))
		];
		const all = [...others, ['pg_theme', 'dark'] as [string, string], ['pg_session', 'old']];
		const jar = new FakeCookies(Object.fromEntries(all));
		const header = all.map(([k, v]) => `${k}=${v}`).join('; ');
		const mine = 'mineMineMineMine';
		await writeSession(jar, { v: 1, client_secret: 'y'.repeat(2000) }, false, {
			header,
			https: false,
			flow: mine,
			...ring
		});
		// Only a (the oldest) had to go; b and c stay; the old one-per-browser cookie goes too.
		expect(jar.deletes.map((d) => d.name).sort()).toEqual(
			[...chunks(id('a'), flowOf(id('a'), 4, 0)).map(([n]) => n), 'pg_session'].sort()
		);
		expect(jar.jar.has(`pg_flow_${id('b')}`)).toBe(true);
		expect(jar.jar.has(`pg_flow_${id('c')}`)).toBe(true);
		expect(jar.jar.get('pg_dropped')).toMatch(new RegExp(`^${id('a')}~\\d+$`));
		const sent = [...jar.jar].map(([k, v]) => `${k}=${v}`).join('; ');
		expect(sent.length).toBeLessThan(12_000);
		// The dropped flow's tab reads a notice, not an empty flow without a word.
		const dropped = await readSession(jar, { header: sent, https: false, flow: id('a'), ...ring });
		expect(dropped).toMatchObject({ v: 1, dropped: true });
		expect(dropped.notice).toMatch(/^This tab's flow was dropped to make room for newer ones/);
		// Written again, it leaves the list.
		await writeSession(jar, { v: 1 }, false, {
			header: sent,
			https: false,
			flow: id('a'),
			...ring
		});
		expect(jar.jar.has('pg_dropped')).toBe(false);
	});

	test('flows that fit are left alone, and a flow that does not open goes first', async () => {
		const { writeSession } = await load();
		const fits = [...chunks(id('a'), flowOf(id('a'), 3, NOW_S - 30))];
		const jar = new FakeCookies(Object.fromEntries(fits));
		const header = fits.map(([k, v]) => `${k}=${v}`).join('; ');
		await writeSession(jar, { v: 1, client_secret: 'y'.repeat(3000) }, false, {
			header,
			https: false,
			flow: id('m'),
			...ring
		});
		expect(jar.deletes).toEqual([]);
		const junk: [string, string][] = [
			[`pg_flow_${id('j')}`, 'j'.repeat(3400)],
			...chunks(id('a'), flowOf(id('a'), 4, NOW_S - 30)),
			...chunks(id('b'), flowOf(id('b'), 4, NOW_S - 10))
		];
		const jar2 = new FakeCookies(Object.fromEntries(junk));
		await writeSession(jar2, { v: 1, client_secret: 'y'.repeat(2000) }, false, {
			header: junk.map(([k, v]) => `${k}=${v}`).join('; '),
			https: false,
			flow: id('m'),
			...ring
		});
		expect(jar2.deletes.map((d) => d.name)).toEqual([`pg_flow_${id('j')}`]);
	});
});
