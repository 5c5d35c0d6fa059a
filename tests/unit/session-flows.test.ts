/**
 * The session module across a browser's flows: which request decides the flow (its `?flow=`, its
 * Cookie header and its scheme), the names that are the playground's own, the old one-per-browser
 * cookies, every flow the callback opens, the dropped list, and the byte cap when a flow is
 * rewritten. A request is handed to the module as the wrapper hands it (`cookieSource`: its URL
 * and Cookie header, with the app's keys and clock); the clock is faked.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { sealJwe } from '$lib/server/session/jwe';
import { cookieSource } from '$lib/server/session/session';
import { FakeCookies } from './fake-cookies';
import { testApp } from './test-app';

const KEY = Buffer.alloc(32, 9);
const NOW_S = 1_800_000_000;
const FLOW = 'unitTestFlow-002';
const C = `pg_flow_${FLOW}`;

/** A request to `url` with this Cookie header, as the session module is handed it. */
const at = (url: string, cookie?: string) =>
	cookieSource(APP, new URL(url), new Headers(cookie ? { cookie } : {}));

/** The app whose keys the requests carry: the session key is KEY. */
const APP = testApp(9);

const load = () => import('$lib/server/session/session');

/** A payload sealed as the server seals a flow's: bound to `flow` (FLOW unless said). */
const sealPayload = (payload: object, flow = FLOW) =>
	sealJwe(new TextEncoder().encode(JSON.stringify({ f: flow, ...payload })), KEY);

/** A Cookie header of these pairs, in order, and the `Cookies` SvelteKit makes of it (the first of each name). */
const headerOf = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${v}`).join('; ');
const jarOf = (pairs: [string, string][]) => {
	const first: Record<string, string> = {};
	for (const [k, v] of pairs) if (!(k in first)) first[k] = v;
	return new FakeCookies(first);
};
const src = (pairs: [string, string][], https = false, flow: string | undefined = FLOW) => ({
	header: headerOf(pairs),
	https,
	flow,
	keys: APP.keys,
	clock: APP.clock
});

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(NOW_S * 1000);
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the request decides the flow', () => {
	test('its ?flow=, its Cookie header (every value of a name) and its scheme (__Host- under https)', async () => {
		const { readSession } = await load();
		const own = sealPayload({ v: 1, client_secret: 'own', iat: NOW_S });
		const pairs: [string, string][] = [
			[`__Host-${C}`, 'garbage'],
			[`__Host-${C}`, own]
		];
		const read = (url: string) => readSession(jarOf(pairs), at(url, headerOf(pairs)));
		expect(await read(`https://play.example/?flow=${FLOW}`)).toEqual({
			v: 1,
			client_secret: 'own'
		});
		// The same cookies over http are not the playground's; a malformed ?flow= names no flow.
		expect(await read(`http://play.example/?flow=${FLOW}`)).toEqual({ v: 1 });
		expect(await read(`https://play.example/?flow=short`)).toEqual({ v: 1 });
	});

	test('a request without a Cookie header reads what this response set', async () => {
		const { readSession, writeSession } = await load();
		const request = at(`http://play.example/?flow=${FLOW}`);
		const jar = new FakeCookies();
		await writeSession(jar, { v: 1, client_secret: 'set now' }, false, request);
		expect(await readSession(jar, request)).toEqual({ v: 1, client_secret: 'set now' });
	});

	test('a request that names no flow: nothing is read, written or deleted', async () => {
		const { readSession, readAllFlows, someFlowDropped, dropLegacy, writeSession } = await load();
		const sealed = sealPayload({ v: 1, client_secret: 'not yours', iat: NOW_S });
		const jar = new FakeCookies({ pg_flow_undefined: sealed, pg_session: 'old' });
		const none = at('http://play.example/');
		expect(none.flow).toBeUndefined();
		expect(await readSession(jar, none)).toEqual({ v: 1 });
		expect(
			await readSession(jar, { header: '', https: false, keys: APP.keys, clock: APP.clock })
		).toEqual({ v: 1 });
		expect(await readAllFlows(jar, none)).toEqual([]);
		dropLegacy(jar, none);
		await expect(
			writeSession(jar, { v: 1, client_secret: 'x' }, false, none)
		).rejects.toMatchObject({ status: 400 });
		expect(jar.sets).toEqual([]);
		expect(jar.deletes).toEqual([]);
		// The dropped list of a plain-http request is the plain cookie's.
		expect(someFlowDropped(new FakeCookies({ pg_dropped: `${FLOW}~3` }), none)).toBe(true);
		expect(someFlowDropped(new FakeCookies({ '__Host-pg_dropped': `${FLOW}~3` }), none)).toBe(
			false
		);
	});

	test("a flow dropped is deleted under the request's scheme: the __Host- names under https, the plain ones under http", async () => {
		const { dropFlow } = await load();
		const both = `${C}=plain; __Host-${C}=a; __Host-${C}.1=b`;
		const secure = at(`https://play.example/?flow=${FLOW}`, both);
		const jar = new FakeCookies({ [C]: 'plain', [`__Host-${C}`]: 'a', [`__Host-${C}.1`]: 'b' });
		dropFlow(jar, FLOW, secure);
		expect(jar.deletes).toEqual([
			{ name: `__Host-${C}`, opts: { path: '/', secure: true } },
			{ name: `__Host-${C}.1`, opts: { path: '/', secure: true } }
		]);
		const plain = new FakeCookies({ [C]: 'plain', [`__Host-${C}`]: 'a' });
		dropFlow(plain, FLOW, at(`http://play.example/?flow=${FLOW}`, both));
		expect(plain.deletes).toEqual([{ name: C, opts: { path: '/', secure: false } }]);
	});
});

describe('reading one flow', () => {
	test('a value is trimmed, and unquoted only when quoted at both ends', async () => {
		const { cookieValues } = await load();
		expect(cookieValues('a= 1 ; b="x; c=x"; d="; e=""; f="%41"')).toEqual(
			new Map([
				['a', ['1']],
				['b', ['"x']],
				['c', ['x"']],
				['d', ['"']],
				['e', ['']],
				['f', ['A']]
			])
		);
	});

	test('a cookie emptied by a delete (sent as "name=") is no cookie: no notice', async () => {
		const { readSession } = await load();
		const pairs: [string, string][] = [[C, '']];
		expect(await readSession(jarOf(pairs), src(pairs))).toEqual({ v: 1 });
	});

	test('a flow dropped earlier in the same request is not read from the Cookie header: it reads as closed', async () => {
		const { readSession, dropFlow } = await load();
		const pairs: [string, string][] = [
			[C, sealPayload({ v: 1, client_secret: 'gone', iat: NOW_S })]
		];
		const jar = jarOf(pairs);
		dropFlow(jar, FLOW, src(pairs));
		const read = await readSession(jar, src(pairs));
		expect(read).toEqual({
			v: 1,
			dropped: true,
			notice: expect.stringMatching(/^This flow was a fork, closed/)
		});
	});

	test('a seal with only iat (seconds) is compared with a newer one in milliseconds', async () => {
		const { readSession } = await load();
		const older = sealPayload({
			v: 1,
			client_secret: 'older',
			iat: NOW_S - 120,
			t: (NOW_S - 120) * 1000
		});
		const newer = sealPayload({ v: 1, client_secret: 'newer', iat: NOW_S - 60 });
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
			expect((await readSession(jarOf(pairs), src(pairs))).client_secret).toBe('newer');
	});

	test('two sessions sealed in the same millisecond: the first sent is used', async () => {
		const { readSession } = await load();
		const a = sealPayload({ v: 1, client_secret: 'a', iat: NOW_S, t: NOW_S * 1000 });
		const b = sealPayload({ v: 1, client_secret: 'b', iat: NOW_S, t: NOW_S * 1000 });
		const ab: [string, string][] = [
			[C, a],
			[C, b]
		];
		const ba: [string, string][] = [
			[C, b],
			[C, a]
		];
		expect((await readSession(jarOf(ab), src(ab))).client_secret).toBe('a');
		expect((await readSession(jarOf(ba), src(ba))).client_secret).toBe('b');
	});

	test('a fork sealed when forks named only their parent (`replay_of`) opens as a fork of it, made by a code replay', async () => {
		const { readSession } = await load();
		const parent = 'parentFlow-00001';
		const pairs: [string, string][] = [
			[C, sealPayload({ v: 1, client_secret: 's', replay_of: parent, iat: NOW_S })]
		];
		const session = await readSession(jarOf(pairs), src(pairs));
		expect(session.fork_of).toEqual({ flow: parent, by: 'code' });
		expect(session).not.toHaveProperty('replay_of');
	});

	test("another flow's place in the dropped list is no notice for this one", async () => {
		const { readSession, someFlowDropped } = await load();
		const pairs: [string, string][] = [['pg_dropped', `${'a'.repeat(16)}~3`]];
		expect(await readSession(jarOf(pairs), src(pairs))).toEqual({ v: 1 });
		expect(someFlowDropped(jarOf(pairs), src(pairs))).toBe(true);
		expect(someFlowDropped(new FakeCookies(), src([]))).toBe(false);
		// Under https only the __Host- list counts.
		const secure: [string, string][] = [['__Host-pg_dropped', `${FLOW}~3`]];
		expect(someFlowDropped(jarOf(secure), src(secure, true))).toBe(true);
		expect(someFlowDropped(jarOf(pairs), src(pairs, true))).toBe(false);
	});
});

describe('a sealed cookie is bound to its flow', () => {
	const OTHER = 'otherUsersFlow01';
	test('cookie tossing: a flow sealed under another id, put under this flow’s name, opens nothing and says so', async () => {
		const { readSession, writeSession, readAllFlows } = await load();
		// The other flow's cookie, as this server sealed it for that flow.
		const theirs = new FakeCookies();
		await writeSession(
			theirs,
			{ v: 1, client_secret: 'their secret' },
			false,
			at(`http://play.example/?flow=${OTHER}`)
		);
		const sealed = theirs.jar.get(`pg_flow_${OTHER}`)!;
		expect(sealed).toBeTruthy();
		// Tossed from another port of the same host under this flow's name, with a link to ?flow=FLOW.
		const pairs: [string, string][] = [[C, sealed]];
		const read = await readSession(
			jarOf(pairs),
			at(`http://play.example/?flow=${FLOW}`, headerOf(pairs))
		);
		expect(read.client_secret).toBeUndefined();
		expect(read.notice).toMatch(/sealed for another flow/);
		// The callback, which opens every flow the browser sends, skips it too.
		expect(await readAllFlows(jarOf(pairs), src(pairs, false, undefined))).toEqual([]);
		// Under its own name it still opens.
		const own: [string, string][] = [[`pg_flow_${OTHER}`, sealed]];
		expect(
			await readSession(jarOf(own), at(`http://play.example/?flow=${OTHER}`, headerOf(own)))
		).toEqual({ v: 1, client_secret: 'their secret' });
	});

	test('a cookie sealed before cookies named their flow opens as a fresh flow, with a notice', async () => {
		const { readSession } = await load();
		const pairs: [string, string][] = [
			[
				C,
				sealJwe(
					new TextEncoder().encode(JSON.stringify({ v: 1, client_secret: 'old', iat: NOW_S })),
					KEY
				)
			]
		];
		const read = await readSession(
			jarOf(pairs),
			at(`http://play.example/?flow=${FLOW}`, headerOf(pairs))
		);
		expect(read.client_secret).toBeUndefined();
		expect(read.notice).toMatch(/earlier version/);
	});
});

describe('the names that are the playground’s own', () => {
	test('the old one-per-browser cookies are deleted, under their scheme, and nothing that only looks like them', async () => {
		const { dropLegacy } = await load();
		const names = [
			'pg_session',
			'pg_session.1',
			'pg_session.12',
			'xpg_session.1',
			'pg_session.1x',
			'pg_session.x',
			'pg_sessionx',
			'__Host-pg_session',
			'1234567pg_session',
			'foreign'
		];
		const pairs = names.map((n) => [n, 'v'] as [string, string]);
		const plain = jarOf(pairs);
		dropLegacy(plain, src(pairs));
		expect(plain.deletes).toEqual(
			['pg_session', 'pg_session.1', 'pg_session.12'].map((name) => ({
				name,
				opts: { path: '/', secure: false }
			}))
		);
		const secure = jarOf(pairs);
		dropLegacy(secure, src(pairs, true));
		expect(secure.deletes).toEqual([
			{ name: '__Host-pg_session', opts: { path: '/', secure: true } }
		]);
	});

	test('the callback opens every flow that opens, in the order sent, and skips broken and chunkless ones', async () => {
		const { readAllFlows } = await load();
		const a = 'a'.repeat(16);
		const b = 'b'.repeat(16);
		const pairs: [string, string][] = [
			['foreign', 'x'],
			[`pg_flow_${a}`, sealPayload({ v: 1, client_secret: 'A', iat: NOW_S }, a)],
			[`pg_flow_${'g'.repeat(16)}`, 'garbage'],
			[`pg_flow_${'s'.repeat(16)}.1`, 'a stray chunk'],
			[`pg_flow_${'x'.repeat(16)}x`, sealPayload({ v: 1, client_secret: 'X', iat: NOW_S })],
			[`__Host-pg_flow_${'h'.repeat(16)}`, sealPayload({ v: 1, client_secret: 'H', iat: NOW_S })],
			[`pg_flow_${b}`, sealPayload({ v: 1, client_secret: 'B', iat: NOW_S }, b)]
		];
		expect(await readAllFlows(jarOf(pairs), src(pairs, false, undefined))).toEqual([
			{ id: a, session: { v: 1, client_secret: 'A' } },
			{ id: b, session: { v: 1, client_secret: 'B' } }
		]);
	});

	test('the callback opens at most 64 flows, the first sent', async () => {
		const { readAllFlows } = await load();
		const ids = Array.from({ length: 65 }, (_, i) => `flow${String(i).padStart(12, '0')}`);
		const pairs = ids.map(
			(id) => [`pg_flow_${id}`, sealPayload({ v: 1, iat: NOW_S }, id)] as [string, string]
		);
		const read = await readAllFlows(jarOf(pairs), src(pairs, false, undefined));
		expect(read.map((f) => f.id)).toEqual(ids.slice(0, 64));
	});
});

describe('the byte cap when a flow is written', () => {
	const id = (c: string) => c.repeat(16);
	/** A flow's cookies as the server chunks a sealed token. */
	const chunks = (flow: string, token: string): [string, string][] =>
		Array.from({ length: Math.ceil(token.length / 3500) }, (_, i) => [
			i ? `pg_flow_${flow}.${i}` : `pg_flow_${flow}`,
			token.slice(i * 3500, (i + 1) * 3500)
		]);
	const flowOf = (flow: string, chars: number, iat: number) =>
		sealPayload({ v: 1, client_secret: 'x'.repeat(chars), iat }, flow);

	test('rewriting a large flow counts its old cookies once: they are replaced, nothing is dropped', async () => {
		const { writeSession } = await load();
		const mine = id('m');
		const pairs = [
			...chunks(mine, flowOf(mine, 5000, NOW_S - 10)),
			...chunks(id('o'), flowOf(id('o'), 2500, NOW_S - 20))
		];
		const jar = jarOf(pairs);
		await writeSession(
			jar,
			{ v: 1, client_secret: 'y'.repeat(5000) },
			false,
			src(pairs, false, mine)
		);
		expect(jar.deletes).toEqual([]);
		expect(jar.jar.has('pg_dropped')).toBe(false);
	});

	test('a fork written beside its parent and newer flows: the parent, least recently written, stays; the oldest other goes', async () => {
		const { writeSession } = await load();
		const fork = id('f');
		const parent = id('p');
		const older = chunks(id('a'), flowOf(id('a'), 2500, NOW_S - 20));
		const pairs = [
			...chunks(parent, flowOf(parent, 2500, NOW_S - 30)),
			...older,
			...chunks(id('b'), flowOf(id('b'), 2500, NOW_S - 10))
		];
		const jar = jarOf(pairs);
		await writeSession(
			jar,
			{ v: 1, client_secret: 'y'.repeat(2500), fork_of: { flow: parent, by: 'code' } },
			false,
			src(pairs, false, fork)
		);
		expect(jar.deletes.map((d) => d.name)).toEqual(older.map(([n]) => n));
		expect(jar.jar.has(`pg_flow_${parent}`)).toBe(true);
		expect(jar.jar.get('pg_dropped')).toMatch(new RegExp(`^${id('a')}~\\d+$`));
	});

	test('a fork that fits only without its parent is refused, and nothing is dropped', async () => {
		const { writeSession } = await load();
		const parent = id('p');
		const pairs = [...chunks(parent, flowOf(parent, 5500, NOW_S - 30))];
		const jar = jarOf(pairs);
		await expect(
			writeSession(
				jar,
				{ v: 1, client_secret: 'y'.repeat(5500), fork_of: { flow: parent, by: 'code' } },
				false,
				src(pairs, false, id('f'))
			)
		).rejects.toMatchObject({
			status: 409,
			body: { message: expect.stringMatching(/is not dropped to make room for its own fork/) }
		});
		expect(jar.deletes).toEqual([]);
		expect(jar.sets).toEqual([]);
	});

	test('a fork closed from its parent: its cookies go, and its tab says it was closed', async () => {
		const { dropFlow, readSession } = await load();
		const fork = id('f');
		const pairs = chunks(fork, flowOf(fork, 5000, NOW_S - 30));
		const jar = jarOf(pairs);
		dropFlow(jar, fork, src(pairs, false, id('p')));
		expect(jar.deletes.map((d) => d.name)).toEqual(pairs.map(([n]) => n));
		expect(jar.jar.get('pg_dropped')).toBe(`${fork}~c`);
		const after: [string, string][] = [['pg_dropped', jar.jar.get('pg_dropped')!]];
		expect(await readSession(jarOf(after), src(after, false, fork))).toMatchObject({
			dropped: true,
			notice: expect.stringMatching(/^This flow was a fork, closed from the flow it was made from/)
		});
	});

	test('cookies that only look like a flow’s are not counted, and every chunk of a real one is', async () => {
		const { writeSession } = await load();
		const mine = id('m');
		const lookalikes: [string, string][] = [
			[`pg_flow_${id('a')}x`, 'z'.repeat(4000)],
			[`xpg_flow_${id('b')}`, 'z'.repeat(4000)],
			[`pg_flow_${id('c')}.8`, 'z'.repeat(4000)]
		];
		const jar = jarOf(lookalikes);
		await writeSession(
			jar,
			{ v: 1, client_secret: 'y'.repeat(6000) },
			false,
			src(lookalikes, false, mine)
		);
		expect(jar.deletes).toEqual([]);
		expect(jar.jar.has('pg_dropped')).toBe(false);
		// A real flow of two chunks (about 7 KB) beside one of 5 KB: it goes, both its chunks, and not its look-alike .8.
		const other = chunks(id('o'), flowOf(id('o'), 5000, NOW_S - 20));
		expect(other).toHaveLength(2);
		const pairs: [string, string][] = [...other, [`pg_flow_${id('o')}.8`, 'not a chunk']];
		const jar2 = jarOf(pairs);
		await writeSession(
			jar2,
			{ v: 1, client_secret: 'y'.repeat(5000) },
			false,
			src(pairs, false, mine)
		);
		expect(jar2.deletes.map((d) => d.name)).toEqual(other.map(([n]) => n));
		expect(jar2.jar.get('pg_dropped')).toMatch(new RegExp(`^${id('o')}~\\d+$`));
	});
});
