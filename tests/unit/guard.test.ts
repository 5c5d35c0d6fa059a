import { afterEach, describe, expect, test, vi } from 'vitest';
import http from 'node:http';
import type { LookupAddress } from 'node:dns';
import {
	checkAddress,
	checkUrl,
	guardedLookup,
	type GuardPolicy,
	type GuardResult
} from '../../src/lib/server/outbound/guard';
import { parseConfig } from '../../src/lib/config.server.js';
import { listen as listenOnLoopback } from '../helpers/listen';

/** The outbound policy the configuration gives for an environment. */
const policyFromEnv = (env: Record<string, string>) =>
	parseConfig({ ORIGIN: 'https://pg.example', ...env }).policy;

const LOCAL: GuardPolicy = { mode: 'local', allowedHosts: [] };
const HOSTED: GuardPolicy = {
	mode: 'hosted',
	allowedHosts: ['feeds.example.com', '*.reader.test']
};

/** `true`: allowed. A string: refused, with a reason containing it. */
type Expected = true | string;

function expectResult(result: GuardResult, expected: Expected): void {
	if (expected === true) expect(result).toEqual({ ok: true });
	else expect(result).toEqual({ ok: false, reason: expect.stringContaining(expected) });
}

function bothModes(table: [string, Expected, Expected][]) {
	return table.flatMap(([input, local, hosted]): [string, string, GuardPolicy, Expected][] => [
		[`local: ${JSON.stringify(input)}`, input, LOCAL, local],
		[`hosted: ${JSON.stringify(input)}`, input, HOSTED, hosted]
	]);
}

const SCHEME = 'only fetches http: and https:';
const CREDENTIALS = 'user name or password';
const NOT_LISTED = "not on this playground's list of allowed hosts";
const METADATA = 'cloud metadata address; the playground never connects to it';
const LOOPBACK_127 =
	'127.0.0.1 is a loopback address; the hosted playground only connects to public addresses';
const VIA_127 =
	'for 127.0.0.1, which is a loopback address; the hosted playground only connects to public addresses';

// [url, local mode, hosted mode with allowedHosts feeds.example.com and *.reader.test]
const URLS: [string, Expected, Expected][] = [
	['https://feeds.example.com/rss', true, true],
	['http://feeds.example.com/rss', true, true],
	// An entry without a port allows only 80 and 443 (allow-list ports)
	['https://feeds.example.com:8443/rss?x=1', true, 'Port 8443 of feeds.example.com is not allowed'],
	['http://feeds.example.com:6379/', true, 'Port 6379 of feeds.example.com is not allowed'],
	['http://feeds.example.com:443/', true, true],
	['https://feeds.example.com:80/', true, true],
	['http://a.reader.test:22/', true, 'Port 22 of a.reader.test is not allowed'],
	['ftp://feeds.example.com/rss', `ftp: URLs are refused; the playground ${SCHEME}`, SCHEME],
	['file:///etc/passwd', 'file: URLs are refused', 'file: URLs are refused'],
	['javascript:alert(1)', 'javascript: URLs are refused', 'javascript: URLs are refused'],
	['data:text/plain,hello', 'data: URLs are refused', 'data: URLs are refused'],
	['ws://feeds.example.com/socket', 'ws: URLs are refused', 'ws: URLs are refused'],
	['https://user:pass@feeds.example.com/', CREDENTIALS, CREDENTIALS],
	['https://user@feeds.example.com/', CREDENTIALS, CREDENTIALS],
	['https://:secret@feeds.example.com/', CREDENTIALS, CREDENTIALS],
	// Literal IPv4 addresses
	['http://127.0.0.1:8080/', true, LOOPBACK_127],
	['http://10.0.0.1/', true, '10.0.0.1 is a private network address'],
	['http://172.16.5.4/', true, '172.16.5.4 is a private network address'],
	['http://172.32.0.1/', true, NOT_LISTED], // just outside 172.16.0.0/12: public
	['http://192.168.1.1/', true, '192.168.1.1 is a private network address'],
	[
		'http://169.254.169.254/latest/meta-data/',
		`169.254.169.254 is a ${METADATA}`,
		`169.254.169.254 is a ${METADATA}`
	],
	['http://169.254.170.2/v2/credentials', METADATA, METADATA],
	['http://100.100.100.200/latest/meta-data/', METADATA, METADATA],
	['http://169.254.1.1/', true, '169.254.1.1 is a link-local address'],
	['http://100.64.0.1/', true, '100.64.0.1 is a shared (carrier-grade NAT) address'],
	['http://198.18.0.1/', true, '198.18.0.1 is a benchmarking address'],
	['http://0.0.0.0/', '0.0.0.0 is an unspecified', '0.0.0.0 is an unspecified'],
	['http://224.0.0.1/', '224.0.0.1 is a multicast address', '224.0.0.1 is a multicast address'],
	['http://255.255.255.255/', '255.255.255.255 is the broadcast address', 'broadcast'],
	['http://240.0.0.1/', '240.0.0.1 is a reserved address', 'reserved'],
	['http://192.0.2.10/', '192.0.2.10 is a reserved address', 'reserved'],
	['http://8.8.8.8/', true, `8.8.8.8 is ${NOT_LISTED}`],
	['http://93.184.216.34/', true, NOT_LISTED],
	// Odd IPv4 notations: the URL parser turns them into 127.0.0.1 / 169.254.169.254 before we look
	['http://0x7f.1/', true, LOOPBACK_127],
	['http://2130706433/', true, LOOPBACK_127],
	['http://0177.0.0.1/', true, LOOPBACK_127],
	['http://017700000001/', true, LOOPBACK_127],
	['http://127.1/', true, LOOPBACK_127],
	['http://127.0.0.1./', true, LOOPBACK_127],
	['http://%31%32%37.0.0.1/', true, LOOPBACK_127],
	['http://0xa9.0xfe.0xa9.0xfe/', `169.254.169.254 is a ${METADATA}`, METADATA],
	['http://2852039166/', `169.254.169.254 is a ${METADATA}`, METADATA],
	// Literal IPv6 addresses
	['http://[::1]:8080/', true, '::1 is a loopback address'],
	['http://[::]/', ':: is an unspecified', ':: is an unspecified'],
	['http://[fe80::1]/', true, 'fe80::1 is a link-local address'],
	['http://[fd00:ec2::254]/', `fd00:ec2::254 is a ${METADATA}`, METADATA],
	['http://[fc00::1]/', true, 'fc00::1 is a unique local'],
	['http://[ff02::1]/', 'ff02::1 is a multicast address', 'multicast'],
	['http://[2001:db8::1]/', '2001:db8::1 is a reserved address', 'reserved'],
	['http://[2606:4700:4700::1111]/', true, NOT_LISTED],
	['http://[::ffff:127.0.0.1]/', true, `::ffff:7f00:1 is an IPv4-mapped IPv6 address ${VIA_127}`],
	['http://[::ffff:7f00:1]/', true, `IPv4-mapped IPv6 address ${VIA_127}`],
	['http://[::ffff:169.254.169.254]/', `for 169.254.169.254, which is a ${METADATA}`, METADATA],
	['http://[::ffff:10.0.0.1]/', true, 'for 10.0.0.1, which is a private network address'],
	['http://[::127.0.0.1]/', true, `::7f00:1 is an IPv4-compatible IPv6 address ${VIA_127}`],
	[
		'http://[64:ff9b::a9fe:a9fe]/',
		`NAT64 address for 169.254.169.254, which is a ${METADATA}`,
		METADATA
	],
	['http://[2002:7f00:1::1]/', true, `6to4 address ${VIA_127}`],
	// Host names: local mode leaves them to resolution; hosted mode needs them on the allow list
	['http://localhost:3000/', true, `localhost is ${NOT_LISTED}`],
	['https://a.reader.test/feed', true, true],
	['https://deep.a.reader.test/feed', true, true],
	['https://reader.test/feed', true, `reader.test is ${NOT_LISTED}`],
	['https://evilreader.test/feed', true, `evilreader.test is ${NOT_LISTED}`],
	['https://.reader.test/feed', true, NOT_LISTED],
	['https://a..reader.test/feed', true, NOT_LISTED],
	['https://a.reader.test.evil.example/', true, NOT_LISTED],
	['https://FEEDS.Example.COM/rss', true, true],
	['https://feeds.example.com./rss', true, true],
	['https://xfeeds.example.com/rss', true, NOT_LISTED],
	['https://feeds.example.com.evil.example/rss', true, NOT_LISTED],
	['https://api.feeds.example.com/rss', true, NOT_LISTED]
];

describe('checkUrl', () => {
	// An address written into the URL meets the same rules as one a resolver returns: the same
	// refusal, word for word; an address the rules allow is still subject to the allow list.
	const literals = URLS.filter(([input]) => {
		const u = new URL(input);
		return (
			/^https?:$/.test(u.protocol) &&
			!u.username &&
			!u.password &&
			(u.hostname.startsWith('[') || /^[\d.]+$/.test(u.hostname))
		);
	});
	test.each(bothModes(literals))(
		'%s: an IP literal gets the verdict of its address',
		(_n, input, policy) => {
			const url = new URL(input);
			const address = checkAddress(
				url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, ''),
				policy
			);
			const verdict = checkUrl(url, policy);
			if (!address.ok) expect(verdict).toEqual(address);
			else if (policy.mode === 'local') expect(verdict).toEqual({ ok: true });
			else expectResult(verdict, verdict.ok ? true : NOT_LISTED);
		}
	);

	test.each(bothModes(URLS))('%s', (_name, input, policy, expected) => {
		expectResult(checkUrl(new URL(input), policy), expected);
	});

	test('the URL parser normalises odd IPv4 notations to dotted decimal', () => {
		for (const odd of [
			'0x7f.1',
			'2130706433',
			'0177.0.0.1',
			'017700000001',
			'127.1',
			'0x7f.0.0.1'
		]) {
			expect(new URL(`http://${odd}/`).hostname).toBe('127.0.0.1');
		}
		expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
	});

	test('an allowed IP literal is still subject to the address rules', () => {
		const publicIp: GuardPolicy = { mode: 'hosted', allowedHosts: ['93.184.216.34'] };
		expectResult(checkUrl(new URL('http://93.184.216.34/'), publicIp), true);
		const privateIp: GuardPolicy = { mode: 'hosted', allowedHosts: ['10.0.0.1', 'localhost'] };
		expectResult(
			checkUrl(new URL('http://10.0.0.1/'), privateIp),
			'10.0.0.1 is a private network address'
		);
		// localhost passes the URL check here; its resolution (loopback) is what refuses it, see guardedLookup.
		expectResult(checkUrl(new URL('http://localhost/'), privateIp), true);
	});

	test('allow-list ports: a hosted playground allowed feeds.example.com must not reach feeds.example.com:6379', () => {
		const policy = policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: 'feeds.example.com' });
		expect(checkUrl(new URL('http://feeds.example.com/'), policy)).toEqual({ ok: true });
		expect(checkUrl(new URL('https://feeds.example.com/'), policy)).toEqual({ ok: true });
		for (const port of [6379, 22, 25, 8080, 8443, 1])
			expect(checkUrl(new URL(`http://feeds.example.com:${port}/`), policy)).toEqual({
				ok: false,
				reason: expect.stringContaining(`Port ${port} of feeds.example.com is not allowed`)
			});
	});

	test('an entry with a port allows that port only, for a name or a wildcard', () => {
		const policy = policyFromEnv({
			PLAYGROUND_ALLOWED_HOSTS: 'Feeds.Example.com:8443, *.reader.test:9000, api.example.org.:443'
		});
		expect(policy.allowedHosts).toEqual([
			'feeds.example.com:8443',
			'*.reader.test:9000',
			'api.example.org:443'
		]);
		const ok = (u: string) => checkUrl(new URL(u), policy).ok;
		expect(ok('https://feeds.example.com:8443/')).toBe(true);
		expect(ok('https://feeds.example.com/')).toBe(false);
		expect(ok('http://feeds.example.com/')).toBe(false);
		expect(ok('http://a.reader.test:9000/')).toBe(true);
		expect(ok('http://a.reader.test/')).toBe(false);
		expect(ok('http://reader.test:9000/')).toBe(false);
		expect(ok('https://api.example.org/')).toBe(true);
		expect(ok('http://api.example.org/')).toBe(false);
		// The refusal names the ports the list does allow for that name.
		expect(checkUrl(new URL('http://api.example.org/'), policy)).toEqual({
			ok: false,
			reason: expect.stringContaining('allows api.example.org on 443 only')
		});
	});

	test('two entries for one name allow both ports', () => {
		const policy: GuardPolicy = {
			mode: 'hosted',
			allowedHosts: ['feeds.example.com:8443', 'FEEDS.example.com']
		};
		const ok = (u: string) => checkUrl(new URL(u), policy).ok;
		expect(ok('https://feeds.example.com:8443/')).toBe(true);
		expect(ok('https://feeds.example.com/')).toBe(true);
		expect(ok('http://feeds.example.com/')).toBe(true);
		expect(ok('http://feeds.example.com:8080/')).toBe(false);
		expect(checkUrl(new URL('http://feeds.example.com:8080/'), policy)).toEqual({
			ok: false,
			reason: expect.stringContaining('allows feeds.example.com on 8443, 80, 443 only')
		});
	});

	test('hosted mode with an empty allow list refuses every host', () => {
		const none: GuardPolicy = { mode: 'hosted', allowedHosts: [] };
		expectResult(checkUrl(new URL('https://feeds.example.com/'), none), NOT_LISTED);
	});
});

// [address as a resolver returns it, local mode, hosted mode]
const ADDRESSES: [string, Expected, Expected][] = [
	['93.184.216.34', true, true],
	['8.8.8.8', true, true],
	['2606:4700:4700::1111', true, true],
	['172.15.255.255', true, true],
	['100.128.0.0', true, true],
	['100.63.255.255', true, true],
	['127.0.0.1', true, 'loopback'],
	['127.255.255.254', true, 'loopback'],
	['::1', true, '::1 is a loopback address'],
	['10.255.255.255', true, 'private'],
	['172.31.255.255', true, 'private'],
	['192.168.0.1', true, 'private'],
	['fec0::1', true, 'private'],
	['feff::1', true, 'private'],
	['169.254.0.1', true, 'link-local'],
	['fe80::1', true, 'link-local'],
	['fe80::1%eth0', true, 'fe80::1%eth0 is a link-local address'],
	['fdff:1234::1', true, 'unique local'],
	['100.64.0.0', true, 'carrier-grade NAT'],
	['100.127.255.255', true, 'carrier-grade NAT'],
	['198.19.255.255', true, 'benchmarking'],
	['2001:2::1', true, 'benchmarking'],
	['64:ff9b:1::a00:1', true, 'local-use NAT64'],
	['169.254.169.254', METADATA, METADATA],
	['169.254.170.2', METADATA, METADATA],
	['169.254.170.23', METADATA, METADATA],
	['100.100.100.200', METADATA, METADATA],
	['168.63.129.16', METADATA, METADATA],
	['fd00:ec2::254', METADATA, METADATA],
	['fd00:ec2::23', METADATA, METADATA],
	['0.0.0.0', 'unspecified', 'unspecified'],
	['0.1.2.3', 'unspecified', 'unspecified'],
	['::', 'unspecified', 'unspecified'],
	['239.255.255.250', 'multicast', 'multicast'],
	['ff05::2', 'multicast', 'multicast'],
	['255.255.255.255', 'broadcast', 'broadcast'],
	['203.0.113.5', 'reserved', 'reserved'],
	['198.51.100.1', 'reserved', 'reserved'],
	['3fff::1', 'reserved', 'reserved'],
	['100::1', 'reserved', 'reserved'],
	['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo', 'Teredo'],
	// IPv4 inside IPv6
	['::ffff:127.0.0.1', true, 'IPv4-mapped IPv6 address for 127.0.0.1, which is a loopback address'],
	['::ffff:7f00:1', true, 'IPv4-mapped IPv6 address for 127.0.0.1'],
	['::ffff:8.8.8.8', true, true],
	['::ffff:a9fe:a9fe', METADATA, METADATA],
	['::ffff:0.0.0.0', 'unspecified', 'unspecified'],
	['::ffff:0:7f00:1', true, 'IPv4-translated IPv6 address for 127.0.0.1'],
	['::127.0.0.1', true, 'IPv4-compatible IPv6 address for 127.0.0.1'],
	['::10.0.0.1', true, 'IPv4-compatible IPv6 address for 10.0.0.1'],
	['::0.0.0.1', true, '::0.0.0.1 is a loopback address'], // that is ::1
	['::1.0.0.0', true, true],
	['64:ff9b::7f00:1', true, 'NAT64 address for 127.0.0.1'],
	['64:ff9b::808:808', true, true],
	['64:ff9b::a9fe:a9fe', METADATA, METADATA],
	['2002:7f00:1::1', true, '6to4 address for 127.0.0.1'],
	['2002:a00:1::', true, '6to4 address for 10.0.0.1'],
	['2002:a9fe:a9fe::1', METADATA, METADATA],
	['2002:808:808::1', true, true],
	// Not an IP address in standard form
	['localhost', 'not an IP address', 'not an IP address'],
	['example.com', 'not an IP address', 'not an IP address'],
	['', 'not an IP address', 'not an IP address'],
	['127.1', '"127.1" is not an IP address', 'not an IP address'],
	['0177.0.0.1', 'not an IP address', 'not an IP address'],
	// White space inside: not an address for node:net (the URL parser would drop a tab or newline)
	['::\t1', 'not an IP address', 'not an IP address'],
	['2606:4700::\n1111', 'not an IP address', 'not an IP address'],
	['0x7f.0.0.1', 'not an IP address', 'not an IP address'],
	['2130706433', 'not an IP address', 'not an IP address'],
	['256.0.0.1', 'not an IP address', 'not an IP address'],
	['[::1]', 'not an IP address', 'not an IP address'],
	[' 8.8.8.8', 'not an IP address', 'not an IP address'],
	// ipaddr.js alone would read these loosely (0177 as decimal 177, 0x7f as 127); node:net does not
	['::ffff:0177.0.0.1', 'not an IP address', 'not an IP address'],
	['::ffff:0x7f.0.0.1', 'not an IP address', 'not an IP address']
];

describe('checkAddress', () => {
	test.each(bothModes(ADDRESSES))('%s', (_name, input, policy, expected) => {
		expectResult(checkAddress(input, policy), expected);
	});

	test('reasons are plain sentences', () => {
		expect(checkAddress('169.254.169.254', LOCAL)).toEqual({
			ok: false,
			reason: '169.254.169.254 is a cloud metadata address; the playground never connects to it.'
		});
		expect(checkAddress('10.0.0.5', HOSTED)).toEqual({
			ok: false,
			reason:
				'10.0.0.5 is a private network address; the hosted playground only connects to public addresses.'
		});
	});
});

// ---------------------------------------------------------------------------------------------

interface LookupOutcome {
	err: NodeJS.ErrnoException | null;
	address: string | LookupAddress[];
	family?: number;
}

function runLookup(
	lookup: ReturnType<typeof guardedLookup>,
	host: string,
	options: Parameters<ReturnType<typeof guardedLookup>>[1]
) {
	return new Promise<LookupOutcome>((resolve) => {
		lookup(host, options, (err, address, family) => resolve({ err, address, family }));
	});
}

function fixedResolver(table: Record<string, { address: string; family: number }[]>) {
	return vi.fn(async (host: string) => {
		const answers = table[host];
		if (!answers)
			throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
		return answers;
	});
}

const DNS = {
	'feeds.example.com': [{ address: '93.184.216.34', family: 4 }],
	'intranet.reader.test': [{ address: '10.0.0.5', family: 4 }],
	'mixed.reader.test': [
		{ address: '93.184.216.34', family: 4 },
		{ address: '10.0.0.5', family: 4 }
	],
	'mixed-first.reader.test': [
		{ address: '192.168.0.9', family: 4 },
		{ address: '93.184.216.34', family: 4 }
	],
	'dual.reader.test': [
		{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
		{ address: '93.184.216.34', family: 4 }
	],
	'v6only.reader.test': [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }],
	'metadata.reader.test': [{ address: '169.254.169.254', family: 4 }],
	'mapped.reader.test': [{ address: '::ffff:10.0.0.5', family: 6 }],
	'empty.reader.test': []
};

describe('guardedLookup', () => {
	test('a listed host resolving to a private address is refused in hosted mode', async () => {
		const out = await runLookup(
			guardedLookup(HOSTED, fixedResolver(DNS)),
			'intranet.reader.test',
			{}
		);
		expect(out.err?.code).toBe('EGUARD');
		expect(out.err?.message).toBe(
			'10.0.0.5 is a private network address; the hosted playground only connects to public addresses.'
		);
		// A refused lookup hands Node no address at all.
		expect(out.address).toBe('');
	});

	test('the same host is allowed in local mode, with the checked address', async () => {
		const out = await runLookup(
			guardedLookup(LOCAL, fixedResolver(DNS)),
			'intranet.reader.test',
			{}
		);
		expect(out).toEqual({ err: null, address: '10.0.0.5', family: 4 });
	});

	test.each([
		['local', LOCAL],
		['hosted', HOSTED]
	] as const)('%s: a public answer comes back exactly, in both forms', async (_mode, policy) => {
		const lookup = guardedLookup(policy, fixedResolver(DNS));
		expect(await runLookup(lookup, 'feeds.example.com', {})).toEqual({
			err: null,
			address: '93.184.216.34',
			family: 4
		});
		expect(await runLookup(lookup, 'feeds.example.com', { all: true })).toEqual({
			err: null,
			address: [{ address: '93.184.216.34', family: 4 }],
			family: undefined
		});
	});

	test.each(['mixed.reader.test', 'mixed-first.reader.test'])(
		'hosted: mixed public and private answers for %s are refused, in both forms',
		async (host) => {
			const lookup = guardedLookup(HOSTED, fixedResolver(DNS));
			for (const options of [{}, { all: true }]) {
				const out = await runLookup(lookup, host, options);
				expect(out.err?.code).toBe('EGUARD');
				expect(out.err?.message).toContain('private network address');
			}
		}
	);

	test('local: mixed answers are all returned, in order, with all: true', async () => {
		const out = await runLookup(guardedLookup(LOCAL, fixedResolver(DNS)), 'mixed.reader.test', {
			all: true
		});
		expect(out).toEqual({
			err: null,
			address: [
				{ address: '93.184.216.34', family: 4 },
				{ address: '10.0.0.5', family: 4 }
			],
			family: undefined
		});
	});

	test('metadata is refused even in local mode', async () => {
		const out = await runLookup(guardedLookup(LOCAL, fixedResolver(DNS)), 'metadata.reader.test', {
			all: true
		});
		expect(out.err?.code).toBe('EGUARD');
		expect(out.err?.message).toContain('169.254.169.254 is a cloud metadata address');
	});

	test('hosted: an IPv4-mapped private answer is refused', async () => {
		const out = await runLookup(
			guardedLookup(HOSTED, fixedResolver(DNS)),
			'mapped.reader.test',
			{}
		);
		expect(out.err?.code).toBe('EGUARD');
		expect(out.err?.message).toContain('for 10.0.0.5, which is a private network address');
	});

	test('resolves once per lookup', async () => {
		const resolver = fixedResolver(DNS);
		await runLookup(guardedLookup(HOSTED, resolver), 'mixed.reader.test', { all: true });
		expect(resolver).toHaveBeenCalledTimes(1);
		expect(resolver).toHaveBeenCalledWith('mixed.reader.test', { family: 0, hints: undefined });
	});

	test('honours the requested family', async () => {
		const lookup = guardedLookup(HOSTED, fixedResolver(DNS));
		expect(await runLookup(lookup, 'dual.reader.test', { family: 4 })).toEqual({
			err: null,
			address: '93.184.216.34',
			family: 4
		});
		expect(await runLookup(lookup, 'dual.reader.test', { family: 'IPv6', all: true })).toEqual({
			err: null,
			address: [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }],
			family: undefined
		});
		expect(await runLookup(lookup, 'dual.reader.test', {})).toEqual({
			err: null,
			address: '2606:2800:220:1:248:1893:25c8:1946',
			family: 6
		});
		expect(await runLookup(lookup, 'dual.reader.test', { family: 'IPv4' })).toEqual({
			err: null,
			address: '93.184.216.34',
			family: 4
		});
		expect(await runLookup(lookup, 'dual.reader.test', { family: 6, all: true })).toEqual({
			err: null,
			address: [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }],
			family: undefined
		});
		const none = await runLookup(lookup, 'v6only.reader.test', { family: 4 });
		expect(none.err?.code).toBe('ENOTFOUND');
	});

	test('asks the resolver for the family and hints Node asked for', async () => {
		const resolver = fixedResolver(DNS);
		const lookup = guardedLookup(HOSTED, resolver);
		await runLookup(lookup, 'dual.reader.test', { family: 'IPv6', hints: 32 });
		expect(resolver).toHaveBeenLastCalledWith('dual.reader.test', { family: 6, hints: 32 });
		await runLookup(lookup, 'dual.reader.test', { family: 4 });
		expect(resolver).toHaveBeenLastCalledWith('dual.reader.test', { family: 4, hints: undefined });
	});

	test('resolution failures and empty answers come back as ENOTFOUND', async () => {
		const lookup = guardedLookup(HOSTED, fixedResolver(DNS));
		const missing = await runLookup(lookup, 'nowhere.reader.test', {});
		expect(missing.err?.code).toBe('ENOTFOUND');
		expect(missing.err?.message).toContain('nowhere.reader.test');
		const empty = await runLookup(lookup, 'empty.reader.test', { all: true });
		// The same error as Node's own resolver gives, and no address with it.
		expect(empty.err).toMatchObject({
			code: 'ENOTFOUND',
			syscall: 'getaddrinfo',
			message: 'getaddrinfo ENOTFOUND empty.reader.test'
		});
		expect(empty.address).toBe('');
	});

	test('a resolver that throws synchronously is reported, not thrown', async () => {
		const lookup = guardedLookup(HOSTED, () => {
			throw Object.assign(new Error('boom'), { code: 'EAI_FAIL' });
		});
		const out = await runLookup(lookup, 'feeds.example.com', {});
		expect(out.err?.code).toBe('EAI_FAIL');
		expect(out.address).toBe('');
	});

	test('without a resolver it uses dns.lookup: localhost is loopback', async () => {
		const local = await runLookup(guardedLookup(LOCAL), 'localhost', { all: true });
		expect(local.err).toBeNull();
		const addresses = (local.address as LookupAddress[]).map((a) => a.address);
		expect(addresses.length).toBeGreaterThan(0);
		for (const a of addresses) expect(['127.0.0.1', '::1']).toContain(a);
		const hosted = await runLookup(guardedLookup(HOSTED), 'localhost', {});
		expect(hosted.err?.code).toBe('EGUARD');
		expect(hosted.err?.message).toContain('loopback');
	});

	describe('with node:http', () => {
		let server: http.Server | undefined;
		afterEach(async () => {
			await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
			server = undefined;
		});

		async function listen(): Promise<number> {
			server = http.createServer((req, res) => res.end(`hello from ${req.socket.localAddress}`));
			return (await listenOnLoopback(server)).port;
		}

		/** GETs http://dev.reader.test:port/ (a name only the injected resolver knows), noting how Node called lookup. */
		function get(port: number, policy: GuardPolicy, autoSelectFamily: boolean) {
			const resolver = fixedResolver({ 'dev.reader.test': [{ address: '127.0.0.1', family: 4 }] });
			const guarded = guardedLookup(policy, resolver);
			const allFlags: (boolean | undefined)[] = [];
			const lookup: typeof guarded = (host, options, callback) => {
				allFlags.push(options.all);
				guarded(host, options, callback);
			};
			// autoSelectFamily is a net option that http passes through to the socket.
			const options: http.RequestOptions & { autoSelectFamily: boolean } = {
				host: 'dev.reader.test',
				port,
				path: '/',
				lookup,
				autoSelectFamily,
				agent: false
			};
			return new Promise<{
				body?: string;
				err?: NodeJS.ErrnoException;
				allFlags: (boolean | undefined)[];
			}>((resolve) => {
				const req = http.get(options, (res) => {
					let body = '';
					res.setEncoding('utf8');
					res.on('data', (c: string) => (body += c));
					res.on('end', () => resolve({ body, allFlags }));
				});
				req.on('error', (err: NodeJS.ErrnoException) => resolve({ err, allFlags }));
			});
		}

		test.each([true, false])(
			'local mode connects to the checked address (autoSelectFamily %s)',
			async (auto) => {
				const port = await listen();
				const out = await get(port, LOCAL, auto);
				expect(out.body).toBe('hello from 127.0.0.1');
				expect(out.allFlags).toEqual([auto ? true : undefined]);
			}
		);

		test.each([true, false])('hosted mode never connects (autoSelectFamily %s)', async (auto) => {
			const port = await listen();
			let connections = 0;
			server!.on('connection', () => connections++);
			const out = await get(port, HOSTED, auto);
			expect(out.err?.code).toBe('EGUARD');
			expect(out.err?.message).toContain('127.0.0.1 is a loopback address');
			expect(out.allFlags).toEqual([auto ? true : undefined]);
			expect(connections).toBe(0);
		});
	});
});

// ---------------------------------------------------------------------------------------------

describe('the outbound policy from the environment', () => {
	test.each([
		[{}, 'local'],
		[{ HOST: '' }, 'local'],
		[{ HOST: '127.0.0.1' }, 'local'],
		[{ HOST: '127.0.1.1' }, 'local'],
		[{ HOST: '::1' }, 'local'],
		[{ HOST: '[::1]' }, 'local'],
		[{ HOST: 'localhost' }, 'local'],
		[{ HOST: 'LOCALHOST' }, 'local'],
		[{ HOST: '0.0.0.0' }, 'hosted'],
		[{ HOST: '::' }, 'hosted'],
		[{ HOST: '192.168.1.10' }, 'hosted'],
		[{ HOST: 'playground.example.com' }, 'hosted'],
		[{ HOST: '0.0.0.0', PLAYGROUND_MODE: 'local' }, 'local'],
		[{ PLAYGROUND_MODE: 'hosted' }, 'hosted'],
		[{ PLAYGROUND_MODE: ' Hosted ' }, 'hosted'],
		[{ PLAYGROUND_MODE: '', HOST: '0.0.0.0' }, 'hosted'],
		[{ PLAYGROUND_ALLOWED_HOSTS: '' }, 'local'],
		[{ PLAYGROUND_ALLOWED_HOSTS: '   ' }, 'local']
	] as [Record<string, string>, string][])('%o gives %s mode', (env, mode) => {
		expect(policyFromEnv(env)).toEqual({ mode, allowedHosts: [] });
	});

	test('PLAYGROUND_ALLOWED_HOSTS implies hosted mode and is normalised', () => {
		expect(
			policyFromEnv({
				PLAYGROUND_ALLOWED_HOSTS: ' Feeds.Example.com, *.reader.test ,auth.example.org.,'
			})
		).toEqual({
			mode: 'hosted',
			allowedHosts: ['feeds.example.com', '*.reader.test', 'auth.example.org']
		});
		expect(
			policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: 'feeds.example.com', HOST: '127.0.0.1' }).mode
		).toBe('hosted');
		expect(
			policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: 'feeds.example.com', PLAYGROUND_MODE: 'hosted' })
		).toEqual({
			mode: 'hosted',
			allowedHosts: ['feeds.example.com']
		});
	});

	test('the normalised patterns work with checkUrl', () => {
		const policy = policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: 'FEEDS.example.com.,*.Reader.Test' });
		expect(checkUrl(new URL('https://feeds.example.com/'), policy)).toEqual({ ok: true });
		expect(checkUrl(new URL('https://x.reader.test/'), policy)).toEqual({ ok: true });
		expect(checkUrl(new URL('https://reader.test/'), policy).ok).toBe(false);
	});

	test.each(['public', 'production', 'on', 'localhost'])(
		'PLAYGROUND_MODE=%s is an error',
		(value) => {
			expect(() => policyFromEnv({ PLAYGROUND_MODE: value })).toThrow(
				`PLAYGROUND_MODE must be "local" or "hosted", not "${value}".`
			);
		}
	);

	test('PLAYGROUND_ALLOWED_HOSTS with PLAYGROUND_MODE=local is an error', () => {
		expect(() =>
			policyFromEnv({ PLAYGROUND_MODE: 'local', PLAYGROUND_ALLOWED_HOSTS: 'feeds.example.com' })
		).toThrow(/PLAYGROUND_ALLOWED_HOSTS is set.*PLAYGROUND_MODE is "local"/);
	});

	test.each([
		'https://feeds.example.com',
		'feeds.example.com:0',
		'feeds.example.com:65536',
		'feeds.example.com:',
		'feeds.example.com:https',
		'feeds.example.com:443:443',
		'[::1]:443',
		'feeds.example.com/rss',
		'*',
		'*.',
		'**.example.com',
		'*example.com',
		'a.*.example.com',
		'feeds.*',
		'exa mple.com',
		'-bad.example.com',
		'bad-.example.com',
		'feeds..example.com',
		'.example.com',
		'bücher.example',
		'[::1]',
		'user@feeds.example.com',
		`${'a'.repeat(64)}.example.com`
	])('pattern %j is an error naming it', (pattern) => {
		expect(() =>
			policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: `feeds.example.com, ${pattern}` })
		).toThrow(`PLAYGROUND_ALLOWED_HOSTS: "${pattern}" is not a host pattern.`);
	});

	test('a value with no pattern in it is an error', () => {
		expect(() => policyFromEnv({ PLAYGROUND_ALLOWED_HOSTS: ' , ,' })).toThrow(
			'holds no host pattern'
		);
	});
});
