// The verdict on the store REDIS_URL names, from the settings read at start to good, warn or
// refuse: a pure function, every case of persistence, eviction and mode.
import { describe, expect, test } from 'vitest';
import { storeVerdict, type StoreSettings } from '$lib/sandbox/store-check.server';

const aof: StoreSettings = {
	source: 'config',
	appendonly: true,
	snapshots: false,
	evictionPolicy: 'noeviction'
};
const snapshotsOnly: StoreSettings = { ...aof, appendonly: false, snapshots: true };
const nothing: StoreSettings = { ...aof, appendonly: false, snapshots: false };

const hosted = { mode: 'hosted' } as const;
const local = { mode: 'local' } as const;
const accepted = { mode: 'hosted', unsafe: 'accept' } as const;

describe('storeVerdict', () => {
	test('append-only with noeviction is good, in either mode, read with CONFIG or INFO', () => {
		expect(storeVerdict(aof, hosted)).toEqual({ verdict: 'good' });
		expect(storeVerdict(aof, local)).toEqual({ verdict: 'good' });
		expect(storeVerdict({ ...aof, snapshots: true }, hosted)).toEqual({ verdict: 'good' });
		const info = { source: 'info', appendonly: true, evictionPolicy: 'noeviction' } as const;
		expect(storeVerdict(info, hosted)).toEqual({ verdict: 'good' });
	});

	test('snapshots only (RDB, no append-only file) is a warning, even in hosted mode', () => {
		const v = storeVerdict(snapshotsOnly, hosted);
		expect(v).toEqual({
			verdict: 'warn',
			message: expect.stringMatching(/snapshots only .*a code used since then could be used again/)
		});
		expect(storeVerdict(snapshotsOnly, local).verdict).toBe('warn');
	});

	test('restarted empty: no persistence at all is refused in hosted mode, saying why and how', () => {
		expect(storeVerdict(nothing, hosted)).toEqual({
			verdict: 'refuse',
			message: expect.stringMatching(
				/REDIS_URL.*appendonly is off and no snapshots are taken: a restart empties it.*appendonly yes and maxmemory-policy noeviction, or set PLAYGROUND_STORE_UNSAFE=accept/
			)
		});
	});

	test('evicted marks: an eviction policy is refused in hosted mode, even with append-only', () => {
		for (const policy of ['allkeys-lru', 'volatile-lru', 'volatile-ttl', 'allkeys-random'])
			expect(storeVerdict({ ...aof, evictionPolicy: policy }, hosted)).toEqual({
				verdict: 'refuse',
				message: expect.stringContaining(`maxmemory-policy is ${policy}: under memory pressure`)
			});
		expect(storeVerdict({ ...snapshotsOnly, evictionPolicy: 'allkeys-lfu' }, hosted).verdict).toBe(
			'refuse'
		);
	});

	test('unknown is refused in hosted mode: settings unread, persistence or policy unknown', () => {
		const none: StoreSettings = { source: 'none', problem: 'CONFIG and INFO are both refused' };
		expect(storeVerdict(none, hosted)).toEqual({
			verdict: 'refuse',
			message: expect.stringContaining(
				'its settings could not be read (CONFIG and INFO are both refused)'
			)
		});
		const infoNoAof = { source: 'info', appendonly: false, evictionPolicy: 'noeviction' } as const;
		expect(storeVerdict(infoNoAof, hosted)).toEqual({
			verdict: 'refuse',
			message: expect.stringMatching(
				/appendonly is off and whether snapshots are taken is not known \(read with INFO: CONFIG is refused\)/
			)
		});
		expect(storeVerdict({ source: 'info', evictionPolicy: 'noeviction' }, hosted)).toEqual({
			verdict: 'refuse',
			message: expect.stringContaining('whether it persists anything is not known')
		});
		expect(storeVerdict({ source: 'info', appendonly: true }, hosted)).toEqual({
			verdict: 'refuse',
			message: expect.stringContaining('its eviction policy is not known')
		});
	});

	test('PLAYGROUND_STORE_UNSAFE=accept turns the refusal into a warning that says so', () => {
		expect(storeVerdict(nothing, accepted)).toEqual({
			verdict: 'warn',
			message: expect.stringMatching(
				/a restart empties it.*Starting anyway \(PLAYGROUND_STORE_UNSAFE=accept\)/
			)
		});
	});

	test('local mode warns where hosted mode refuses, and says hosted mode would refuse', () => {
		expect(storeVerdict(nothing, local)).toEqual({
			verdict: 'warn',
			message: expect.stringMatching(/a restart empties it.*hosted mode refuses to start on it/)
		});
		expect(storeVerdict({ source: 'none', problem: 'unreachable' }, local).verdict).toBe('warn');
	});
});
