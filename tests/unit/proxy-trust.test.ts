/**
 * Proxy headers believed only from the proxy: PLAYGROUND_TRUSTED_PROXIES, the peer-address rule
 * (`isTrustedProxy`), the refusals at start, and the client address the limits count
 * (`clientAddress`), which is the socket's own on any connection that is not from the proxy.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { isTrustedProxy, parseConfig } from '$lib/config.server.js';
import { clientAddress, peerAddress } from '$lib/proxy.server';

describe('PLAYGROUND_TRUSTED_PROXIES', () => {
	const trusted = (value: string) =>
		parseConfig({ PLAYGROUND_TRUSTED_PROXIES: value }).proxy.trusted;

	test('addresses and CIDRs, each written as a CIDR; an IPv4-mapped IPv6 entry as IPv4', () => {
		expect(trusted(' 127.0.0.1, 10.0.0.0/8 ,::1, fd00::/8, ::ffff:192.168.0.7 ')).toEqual([
			'127.0.0.1/32',
			'10.0.0.0/8',
			'::1/128',
			'fd00::/8',
			'192.168.0.7/32'
		]);
		expect(parseConfig({}).proxy.trusted).toEqual([]);
	});

	test('anything else is an error naming the entry', () => {
		for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/', '300.1.1.1', 'fe80::1%eth0'])
			expect(() => trusted(bad), bad).toThrow(
				`PLAYGROUND_TRUSTED_PROXIES: ${JSON.stringify(bad)} is not an IP address or CIDR`
			);
		expect(() => trusted(' , ')).toThrow('PLAYGROUND_TRUSTED_PROXIES is set but holds no address');
	});
});

describe('a catch-all PLAYGROUND_TRUSTED_PROXIES (refused at start)', () => {
	test.each([
		['0.0.0.0/0', 'IPv4'],
		['::/0', 'IPv6'],
		['::ffff:0:0/96', 'IPv4'],
		['10.1.2.3/0', 'IPv4']
	])(
		'%s makes every client a proxy whose forged headers are believed: refused with the reason',
		(entry, family) => {
			const start = () => parseConfig({ PLAYGROUND_TRUSTED_PROXIES: `10.0.0.2, ${entry}` });
			expect(start).toThrow(
				`PLAYGROUND_TRUSTED_PROXIES: ${JSON.stringify(entry)} trusts every ${family} address as a proxy, so any client`
			);
			expect(start).toThrow(/\(HOST_HEADER\)/);
			expect(start).toThrow(/PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept\.$/);
		}
	);

	test('a prefix short of every address is not a catch-all', () => {
		expect(
			parseConfig({ PLAYGROUND_TRUSTED_PROXIES: '0.0.0.0/1, ::/1, ::ffff:0:0/97' }).proxy.trusted
		).toEqual(['0.0.0.0/1', '::/1', '0.0.0.0/1']);
	});

	test.each([
		['0.0.0.0/1, 128.0.0.0/1', 'IPv4'],
		['::ffff:0:0/97, ::ffff:128.0.0.0/97', 'IPv4'],
		['0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/1', 'IPv4'],
		['::/1, 8000::/1', 'IPv6']
	])(
		'%s: entries that together cover every %s address are a catch-all too: refused',
		(list, family) => {
			const start = () => parseConfig({ PLAYGROUND_TRUSTED_PROXIES: list });
			expect(start).toThrow(`trusts every ${family} address as a proxy`);
			expect(start).toThrow(/PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept\.$/);
		}
	);

	test('accepted with PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept, it is trusted and the start warns', () => {
		const c = parseConfig({
			PLAYGROUND_TRUSTED_PROXIES: '0.0.0.0/0',
			PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL: ' Accept '
		});
		expect(c.proxy.trusted).toEqual(['0.0.0.0/0']);
		expect(isTrustedProxy('203.0.113.9', c.proxy.trusted)).toBe(true);
		expect(c.warnings).toHaveLength(1);
		expect(c.warnings[0]).toMatch(
			/^PLAYGROUND_TRUSTED_PROXIES: "0\.0\.0\.0\/0" trusts every IPv4 address as a proxy.* Accepted by PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept/
		);
		expect(parseConfig({ PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2' }).warnings).toEqual([]);
		expect(parseConfig({}).warnings).toEqual([]);
	});

	test('PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL takes only "accept"', () => {
		expect(() =>
			parseConfig({
				PLAYGROUND_TRUSTED_PROXIES: '0.0.0.0/0',
				PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL: 'yes'
			})
		).toThrow('PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL must be "accept" or unset, not "yes".');
	});
});

describe('isTrustedProxy', () => {
	const list = parseConfig({
		PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1,10.1.0.0/16,2001:db8::/32'
	}).proxy.trusted;

	test.each([
		['127.0.0.1', true],
		['::ffff:127.0.0.1', true],
		['10.1.200.3', true],
		['::ffff:10.1.0.9', true],
		['2001:db8::7', true],
		['10.9.9.9', false],
		['127.0.0.2', false],
		['::1', false],
		['2001:db9::1', false],
		['fe80::1%eth0', false],
		['not an address', false],
		['', false],
		[undefined, false]
	])('%j: %j', (address, expected) => {
		expect(isTrustedProxy(address, list)).toBe(expected);
	});

	test('nothing is trusted without the setting', () => {
		expect(isTrustedProxy('127.0.0.1', [])).toBe(false);
	});

	test('an IPv6 proxy written with its zone is matched without it', () => {
		expect(isTrustedProxy('fe80::1%eth0', ['fe80::/10'])).toBe(true);
	});
});

describe('the proxy headers need PLAYGROUND_TRUSTED_PROXIES (refused at start)', () => {
	test.each(['HOST_HEADER', 'PROTOCOL_HEADER', 'PORT_HEADER', 'ADDRESS_HEADER'])(
		'forged %s from any client: set without PLAYGROUND_TRUSTED_PROXIES, it is refused with the reason',
		(name) => {
			expect(() => parseConfig({ [name]: 'x-forwarded-something' })).toThrow(
				new RegExp(`^${name} is set, but PLAYGROUND_TRUSTED_PROXIES is not`)
			);
			expect(
				parseConfig({ [name]: 'x-forwarded-something', PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2' })
					.proxy.trusted
			).toEqual(['10.0.0.2/32']);
		}
	);

	test("the server's own protocol header (written on every request by scripts/serve.js) needs none", () => {
		expect(parseConfig({ PROTOCOL_HEADER: 'x-playground-protocol' }).proxy.protocolHeader).toBe(
			'x-playground-protocol'
		);
	});

	test.each(['HOST_HEADER', 'PROTOCOL_HEADER', 'PORT_HEADER'])(
		"rebinding under ORIGIN's host: %s with ORIGIN (which adapter-node then ignores) is refused",
		(name) => {
			expect(() =>
				parseConfig({
					ORIGIN: 'http://localhost:5173',
					[name]: 'x-forwarded-something',
					PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
				})
			).toThrow(new RegExp(`^${name} is set together with ORIGIN`));
		}
	);

	test('ADDRESS_HEADER with ORIGIN is fine', () => {
		const c = parseConfig({
			ORIGIN: 'https://pg.example',
			ADDRESS_HEADER: 'x-forwarded-for',
			PLAYGROUND_TRUSTED_PROXIES: '172.30.80.10'
		});
		expect(c.proxy).toMatchObject({ addressHeader: 'x-forwarded-for' });
	});
});

describe('clientAddress: the address the limits count', () => {
	const proxy = parseConfig({
		ADDRESS_HEADER: 'x-forwarded-for',
		PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2'
	}).proxy;
	/** A request as adapter-node hands it over: the Node request, and its address reader. */
	const from = (peer: string | undefined, forwarded: string) => ({
		platform: { req: { socket: { remoteAddress: peer } } as unknown as IncomingMessage },
		// adapter-node's reader believes ADDRESS_HEADER from anyone.
		getClientAddress: () => forwarded
	});

	test('escaping the per-address caps with a forged X-Forwarded-For: a direct client is counted by its socket', () => {
		expect(clientAddress(from('198.51.100.7', '203.0.113.1'), proxy)).toBe('198.51.100.7');
		expect(clientAddress(from('198.51.100.7', '203.0.113.2'), proxy)).toBe('198.51.100.7');
	});

	test("from the trusted proxy, the proxy's header names the client", () => {
		expect(clientAddress(from('10.0.0.2', '203.0.113.1'), proxy)).toBe('203.0.113.1');
		expect(clientAddress(from('::ffff:10.0.0.2', '203.0.113.1'), proxy)).toBe('203.0.113.1');
		// ...and a request from the proxy without the header is undefined (the caller's 400).
		const missing = {
			...from('10.0.0.2', ''),
			getClientAddress: (): string => {
				throw new Error('Address header was specified with ADDRESS_HEADER=x but is absent');
			}
		};
		expect(clientAddress(missing, proxy)).toBeUndefined();
	});

	test('without ADDRESS_HEADER, the socket, even from the proxy', () => {
		const plain = parseConfig({ PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2' }).proxy;
		expect(clientAddress(from('10.0.0.2', '203.0.113.1'), plain)).toBe('10.0.0.2');
	});

	test('without the Node request (dev, preview), the adapter says', () => {
		expect(clientAddress({ getClientAddress: () => '127.0.0.1' }, proxy)).toBe('127.0.0.1');
		expect(peerAddress(undefined)).toBeUndefined();
		expect(peerAddress({})).toBeUndefined();
	});
});
