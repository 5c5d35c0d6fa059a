import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	AbuseCounter,
	InFlight,
	clientKey,
	createLimits,
	inSlot,
	limitMessage,
	type Limits
} from '$lib/server/outbound/abuse';
import { parseConfig } from '$lib/config.server.js';

describe('the abuse counter', () => {
	// rate-limiter-flexible's memory store reads Date.now and expires windows with timers.
	afterEach(() => vi.useRealTimers());
	const at = (ms: number) => vi.setSystemTime(ms);

	it('allows `limit` attempts per window, then says how long to wait', async () => {
		vi.useFakeTimers({ now: 0 });
		const c = new AbuseCounter(3, 60);
		expect(await c.hit('203.0.113.9')).toEqual({ ok: true, remaining: 2 });
		expect(await c.hit('203.0.113.9')).toEqual({ ok: true, remaining: 1 });
		at(36_500);
		expect(await c.hit('203.0.113.9')).toEqual({ ok: true, remaining: 0 });
		expect(await c.hit('203.0.113.9')).toEqual({ ok: false, retryAfterS: 24 });
		at(59_999);
		expect(await c.hit('203.0.113.9')).toEqual({ ok: false, retryAfterS: 1 });
		vi.advanceTimersByTime(1);
		expect(await c.hit('203.0.113.9')).toEqual({ ok: true, remaining: 2 });
	});

	it('refused attempts do not extend the window', async () => {
		vi.useFakeTimers({ now: 0 });
		const c = new AbuseCounter(1, 10);
		await c.hit('a');
		for (let t = 1000; t < 10_000; t += 1000) {
			at(t);
			expect((await c.hit('a')).ok).toBe(false);
		}
		vi.advanceTimersByTime(1000);
		expect((await c.hit('a')).ok).toBe(true);
	});

	it('counts each address on its own', async () => {
		const c = new AbuseCounter(1, 60);
		expect((await c.hit('198.51.100.1')).ok).toBe(true);
		expect((await c.hit('198.51.100.1')).ok).toBe(false);
		expect((await c.hit('198.51.100.2')).ok).toBe(true);
	});

	it('counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4', async () => {
		const c = new AbuseCounter(2, 60);
		expect((await c.hit('2001:db8:1:2::1')).ok).toBe(true);
		expect((await c.hit('2001:db8:1:2:ffff::9')).ok).toBe(true);
		expect((await c.hit('2001:db8:1:2:abcd::1')).ok).toBe(false);
		expect((await c.hit('2001:db8:1:3::1')).ok).toBe(true);
		expect((await c.hit('::ffff:198.51.100.7')).ok).toBe(true);
		expect((await c.hit('198.51.100.7')).ok).toBe(true);
		expect((await c.hit('198.51.100.7')).ok).toBe(false);
		expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
		expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
		expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
		expect(clientKey('not an address')).toBe('not an address');
	});

	it('words the refusal plainly', () => {
		expect(limitMessage(60, 60, 23)).toBe(
			'Too many requests from your address: 60 per 60 s. Try again in 23 s.'
		);
	});
});

describe('configuration', () => {
	const rateLimit = (env: Record<string, string>) =>
		parseConfig({ ORIGIN: 'https://pg.example', ...env }).rateLimit;

	it('defaults to 60 per 60 s in hosted mode and off in local mode', () => {
		expect(rateLimit({ PLAYGROUND_MODE: 'hosted' })).toEqual({ limit: 60, windowS: 60 });
		expect(rateLimit({ PLAYGROUND_MODE: 'local' }).limit).toBe(0);
	});

	it('applies in local mode when set, and 0 turns it off', () => {
		expect(
			rateLimit({
				PLAYGROUND_MODE: 'local',
				PLAYGROUND_RATE_LIMIT: '5',
				PLAYGROUND_RATE_WINDOW: '10'
			})
		).toEqual({ limit: 5, windowS: 10 });
		expect(rateLimit({ PLAYGROUND_MODE: 'hosted', PLAYGROUND_RATE_LIMIT: '0' }).limit).toBe(0);
	});

	it('refuses a bad value, naming the variable', () => {
		expect(() => rateLimit({ PLAYGROUND_RATE_LIMIT: 'lots' })).toThrow(/PLAYGROUND_RATE_LIMIT/);
		expect(() => rateLimit({ PLAYGROUND_RATE_LIMIT: '10', PLAYGROUND_RATE_WINDOW: '0' })).toThrow(
			/PLAYGROUND_RATE_WINDOW/
		);
	});
});

describe('overLimit: the form actions’ gate', () => {
	afterEach(() => {
		vi.useRealTimers();
		vi.resetModules();
	});

	/** The limits the gate counts with, built by `gate`. */
	let limits: Limits;

	/** A gate with a counter of its own, on a clock the test moves. */
	async function gate(limit: string, windowS: string) {
		vi.useFakeTimers({ toFake: ['Date'], now: 0 });
		const config = parseConfig({
			PLAYGROUND_MODE: 'hosted',
			ORIGIN: 'https://pg.example',
			PLAYGROUND_RATE_LIMIT: limit,
			PLAYGROUND_RATE_WINDOW: windowS
		});
		limits = createLimits({ config, redis: undefined });
		const { overLimit } = await import('$lib/server/outbound/abuse');
		return async (address: string) => {
			const headers: Record<string, string> = {};
			const result = await overLimit(limits, {
				getClientAddress: () => address,
				setHeaders: (h: Record<string, string>) => Object.assign(headers, h)
			});
			return { result, headers };
		};
	}

	it('lets `limit` steps through, then answers 429 with Retry-After counting down on the clock', async () => {
		const step = await gate('2', '120');
		expect(await step('198.51.100.7')).toEqual({ result: undefined, headers: {} });
		vi.setSystemTime(30_500);
		expect((await step('198.51.100.7')).result).toBeUndefined();
		const refused = await step('198.51.100.7');
		expect(refused.headers).toEqual({ 'retry-after': '90' });
		expect(refused.result).toMatchObject({
			status: 429,
			data: {
				message: 'Too many requests from your address: 2 per 120 s. Try again in 90 s.',
				exchanges: []
			}
		});
		vi.setSystemTime(119_001);
		expect((await step('198.51.100.7')).headers).toEqual({ 'retry-after': '1' });
		expect((await step('198.51.100.8')).result).toBeUndefined();
		vi.setSystemTime(120_000);
		expect(await step('198.51.100.7')).toEqual({ result: undefined, headers: {} });
	});

	it('is off with PLAYGROUND_RATE_LIMIT=0: every step goes through', async () => {
		const step = await gate('0', '60');
		for (let i = 0; i < 100; i++) expect((await step('198.51.100.7')).result).toBeUndefined();
	});

	it("answers 400 with the reason when the proxy's address header is missing (adapter-node throws)", async () => {
		await gate('2', '60');
		const { overLimit } = await import('$lib/server/outbound/abuse');
		const result = await overLimit(limits, {
			getClientAddress: () => {
				throw new Error('Address header was specified with ADDRESS_HEADER=x but is absent');
			},
			setHeaders: () => {}
		});
		expect(result).toMatchObject({ status: 400, data: { exchanges: [] } });
		expect(String(result?.data.message)).toMatch(/\(ADDRESS_HEADER\).*did not come through/);
	});
});

describe('the in-flight cap', () => {
	afterEach(() => {
		vi.resetModules();
	});

	it('defaults to 4 in hosted mode and off in local mode; set, it applies in local mode too', () => {
		const cap = (env: Record<string, string>) =>
			parseConfig({ ORIGIN: 'https://pg.example', ...env }).maxInFlight;
		expect(cap({ PLAYGROUND_MODE: 'hosted' })).toBe(4);
		expect(cap({ PLAYGROUND_MODE: 'local' })).toBe(0);
		expect(cap({ PLAYGROUND_MODE: 'local', PLAYGROUND_MAX_IN_FLIGHT: '2' })).toBe(2);
		expect(cap({ PLAYGROUND_MODE: 'hosted', PLAYGROUND_MAX_IN_FLIGHT: '0' })).toBe(0);
		expect(() => cap({ PLAYGROUND_MAX_IN_FLIGHT: 'many' })).toThrow(/PLAYGROUND_MAX_IN_FLIGHT/);
	});

	it('holds `limit` slots per address (per /64 for IPv6), each given back once', () => {
		const cap = new InFlight(2);
		const a = cap.take('203.0.113.9')!;
		const b = cap.take('203.0.113.9')!;
		expect(cap.take('203.0.113.9')).toBeNull();
		expect(cap.take('::ffff:203.0.113.9')).toBeNull(); // the same address, IPv4-mapped
		expect(cap.take('203.0.113.10')).not.toBeNull();
		a();
		a(); // a second release gives nothing more back
		expect(cap.holding('203.0.113.9')).toBe(1);
		const c = cap.take('203.0.113.9')!;
		expect(cap.take('203.0.113.9')).toBeNull();
		b();
		c();
		expect(cap.holding('203.0.113.9')).toBe(0);

		cap.take('2001:db8:1:2::1');
		cap.take('2001:db8:1:2:ffff::7');
		expect(cap.take('2001:db8:1:2::99')).toBeNull();
		expect(cap.take('2001:db8:1:3::1')).not.toBeNull();
		expect(cap.size).toBe(3);
	});

	/** Limits with a cap of `limit` of their own, and the gate that uses them. */
	async function slots(limit: string) {
		const config = parseConfig({ PLAYGROUND_MODE: 'local', PLAYGROUND_MAX_IN_FLIGHT: limit });
		const limits = createLimits({ config, redis: undefined });
		const from = (address: string) => ({ getClientAddress: () => address });
		return {
			inSlot: <T>(event: Parameters<typeof inSlot>[1], run: () => Promise<T>) =>
				inSlot(limits, event, run),
			inFlightCap: () => limits.inFlight,
			from
		};
	}

	it('answers 429 while every slot is taken, and gives a slot back whatever the step did', async () => {
		const { inSlot, inFlightCap, from } = await slots('2');
		const me = from('198.51.100.7');
		let finish!: (v: string) => void;
		const hanging = inSlot(me, () => new Promise<string>((ok) => (finish = ok)));
		const failing = inSlot(me, () => Promise.reject(new Error('timed out')));
		// The failed step has given its slot back: one held, one free.
		await expect(failing).rejects.toThrow('timed out');
		expect(inFlightCap()!.holding('198.51.100.7')).toBe(1);
		const aborted = new AbortController();
		const abortable = inSlot(
			me,
			() =>
				new Promise((_, no) =>
					aborted.signal.addEventListener('abort', () => no(aborted.signal.reason))
				)
		);
		const over = await inSlot(me, async () => 'ran');
		expect(over).toMatchObject({
			ok: false,
			failure: { status: 429, data: { exchanges: [] } }
		});
		expect(
			String((over as { failure: { data: { message: string } } }).failure.data.message)
		).toMatch(/already has 2 requests to services in progress/);
		expect(await inSlot(from('198.51.100.8'), async () => 'other')).toEqual({
			ok: true,
			value: 'other'
		});
		aborted.abort(new Error('aborted'));
		await expect(abortable).rejects.toThrow('aborted');
		finish('answered');
		expect(await hanging).toEqual({ ok: true, value: 'answered' });
		expect(inFlightCap()!.holding('198.51.100.7')).toBe(0);
		expect(await inSlot(me, async () => 'ran')).toEqual({ ok: true, value: 'ran' });
	});

	it("answers 400 with the reason when the proxy's address header is missing, and runs nothing", async () => {
		const { inSlot, inFlightCap } = await slots('2');
		let ran = false;
		const noAddress = {
			getClientAddress: (): string => {
				throw new Error('Address header was specified with ADDRESS_HEADER=x but is absent');
			}
		};
		const r = await inSlot(noAddress, async () => (ran = true));
		expect(r).toMatchObject({ ok: false, failure: { status: 400, data: { exchanges: [] } } });
		expect(ran).toBe(false);
		expect(inFlightCap()!.size).toBe(0);
	});

	it('is off with PLAYGROUND_MAX_IN_FLIGHT=0', async () => {
		const { inSlot, inFlightCap, from } = await slots('0');
		expect(inFlightCap()).toBeNull();
		const never = Array.from({ length: 50 }, () =>
			inSlot(from('198.51.100.7'), () => new Promise(() => {}))
		);
		expect(never).toHaveLength(50);
		expect(await inSlot(from('198.51.100.7'), async () => 1)).toEqual({ ok: true, value: 1 });
		// Off, it needs no address: a request without the proxy's header goes through too.
		const noAddress = {
			getClientAddress: (): string => {
				throw new Error('Address header was specified with ADDRESS_HEADER=x but is absent');
			}
		};
		expect(await inSlot(noAddress, async () => 2)).toEqual({ ok: true, value: 2 });
	});
});
