/**
 * The outbound guard: which URLs and addresses the playground's server may connect to (SSRF policy).
 *
 * A visitor types URLs and the server fetches them, so every fetch passes two checks:
 *
 * 1. checkUrl, before any network:
 *    - the scheme is http: or https:;
 *    - the URL carries no user name or password (user:pass@host);
 *    - a literal IP host passes checkAddress (the WHATWG URL parser has already turned 0x7f.1,
 *      2130706433, 0177.0.0.1 and friends into dotted decimal, so one form is enough);
 *    - hosted mode: the host name and port match an entry of PLAYGROUND_ALLOWED_HOSTS
 *      (`feeds.example.com` exactly, `*.example.com` any name below example.com but not example.com
 *      itself; one trailing dot ignored). An entry without a port allows only the web's ports, 80 and
 *      443; `feeds.example.com:8443` allows that port only (so an allowed name cannot be used to
 *      reach its Redis or SSH port).
 *    Call it again for every URL fetched, including each redirect target.
 *
 * 2. guardedLookup, as the `lookup` of the http(s) request or agent: the name is resolved once, every
 *    address it resolves to passes checkAddress, and the socket connects to the address that was
 *    checked, so a second, different DNS answer (DNS rebinding) never reaches the connection.
 *    Node skips `lookup` for literal IP hosts; checkUrl covers those.
 *
 * checkAddress rules, in order (the first match gives the reason):
 *    always refused  cloud metadata: 169.254.169.254 (AWS, GCP, Azure, OCI...), fd00:ec2::254 (AWS),
 *                      169.254.170.2 (AWS ECS), 169.254.170.23 and fd00:ec2::23 (AWS EKS Pod Identity),
 *                      100.100.100.200 (Alibaba Cloud), 168.63.129.16 (Azure WireServer);
 *                    unspecified 0.0.0.0/8, ::; broadcast 255.255.255.255; multicast 224.0.0.0/4, ff00::/8;
 *                    reserved: 240.0.0.0/4, 192.0.0.0/24, 192.88.99.0/24, documentation ranges (192.0.2.0/24,
 *                      198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 3fff::/20), discard 100::/64,
 *                      Teredo 2001::/32 (its IPv4 end is obfuscated, so it cannot be checked).
 *    hosted mode     loopback 127.0.0.0/8, ::1; private 10/8, 172.16/12, 192.168/16 (RFC 1918), site-local
 *                      fec0::/10; link-local 169.254/16, fe80::/10; unique local fc00::/7; shared/CGNAT
 *                      100.64/10; benchmarking 198.18/15, 2001:2::/48; local-use NAT64 64:ff9b:1::/48.
 *    IPv6 forms that carry an IPv4 address are judged by that address too: IPv4-mapped ::ffff:0:0/96,
 *    IPv4-translated ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16.
 *    Local mode lets loopback and private addresses through so developers can try their own servers.
 *    A string that is not an IP address in standard form (node:net's isIP) is refused.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { GuardPolicy } from '$lib/config.server.js';

export type { GuardPolicy } from '$lib/config.server.js';
export type GuardResult = { ok: true } | { ok: false; reason: string };

type Ip = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Ip, number];

const OK: GuardResult = { ok: true };
const refuse = (reason: string): GuardResult => ({ ok: false, reason });

// ---------------------------------------------------------------------------------------------
// URL checks, one function per rule

/** Checks a URL before any network. */
export function checkUrl(url: URL, policy: GuardPolicy): GuardResult {
	for (const check of [checkScheme, checkCredentials, checkLiteralIp, checkAllowList]) {
		const result = check(url, policy);
		if (!result.ok) return result;
	}
	return OK;
}

function checkScheme(url: URL): GuardResult {
	if (url.protocol === 'http:' || url.protocol === 'https:') return OK;
	return refuse(
		`${url.protocol} URLs are refused; the playground only fetches http: and https: URLs.`
	);
}

function checkCredentials(url: URL): GuardResult {
	if (url.username === '' && url.password === '') return OK;
	return refuse(
		'The URL carries a user name or password (user:pass@host), which the playground refuses; ' +
			'send credentials in a header or the request body instead.'
	);
}

function checkLiteralIp(url: URL, policy: GuardPolicy): GuardResult {
	const literal = ipLiteral(url.hostname);
	return literal === null ? OK : checkAddress(literal, policy);
}

function checkAllowList(url: URL, policy: GuardPolicy): GuardResult {
	if (policy.mode === 'local') return OK;
	const host = url.hostname.toLowerCase().replace(/\.$/, '');
	const port = effectivePort(url);
	const named = policy.allowedHosts.map((entry) => splitEntry(entry.toLowerCase()));
	const byName = named.filter((entry) => hostMatches(host, entry.pattern));
	if (byName.some((entry) => entry.ports.includes(port))) return OK;
	if (byName.length > 0)
		return refuse(
			`Port ${port} of ${host} is not allowed: PLAYGROUND_ALLOWED_HOSTS allows ${host} on ` +
				`${[...new Set(byName.flatMap((entry) => entry.ports))].join(', ')} only; ` +
				'list it as host:port to allow another port.'
		);
	return refuse(
		`${host} is not on this playground's list of allowed hosts (PLAYGROUND_ALLOWED_HOSTS); ` +
			'the hosted playground only connects to listed hosts.'
	);
}

/** The web's ports: what an allow-list entry without a port allows. */
const WEB_PORTS = [80, 443];

/** The port a URL connects to (the URL parser leaves the scheme's default port out). */
function effectivePort(url: URL): number {
	if (url.port !== '') return Number(url.port);
	return url.protocol === 'https:' ? 443 : 80;
}

/** An allow-list entry, `pattern` or `pattern:port`, as its host pattern and the ports it allows. */
function splitEntry(entry: string): { pattern: string; ports: number[] } {
	const colon = entry.indexOf(':');
	if (colon === -1) return { pattern: entry, ports: WEB_PORTS };
	return { pattern: entry.slice(0, colon), ports: [Number(entry.slice(colon + 1))] };
}

/** The address in a URL hostname that is an IP literal ("[::1]" or dotted decimal), else null. */
function ipLiteral(hostname: string): string | null {
	// The URL parser writes an IPv6 host in brackets, and an IPv4 one without a trailing dot.
	if (hostname.startsWith('[')) return hostname.slice(1, -1);
	return ipaddr.IPv4.isValidFourPartDecimal(hostname) ? hostname : null;
}

/** `*.example.com` matches names below example.com (any depth), not example.com itself. */
function hostMatches(host: string, pattern: string): boolean {
	if (!pattern.startsWith('*.')) return host === pattern;
	// Below the suffix, with no empty label anywhere (".example.com", "a..example.com").
	return host.endsWith(pattern.slice(1)) && !host.split('.').includes('');
}

// ---------------------------------------------------------------------------------------------
// Address checks

interface AddressRule {
	/** Completes "<address> is ...". */
	what: string;
	ranges: Range[];
}

// The address tables below are functions that list them when an address is checked, not constants
// built when the module loads: a table that cannot be built (a malformed CIDR) then fails the check
// that needs it, with an error the caller and the tests see, instead of the module failing to load,
// and every test that checks an address runs the tables' code, so mutation testing credits each of
// those tests. Each CIDR is parsed once, on first use, and kept (`range`): listing the tables is then
// a few dozen map lookups per check, where parsing them all again took about 0.2 ms.

// eslint-disable-next-line no-restricted-syntax -- a pure memo: a range's text always parses to the same range
const parsedRanges = new Map<string, Range>();

/** A CIDR range, parsed on first use and kept. */
function range(cidr: string): Range {
	return parsedRanges.get(cidr) ?? parsedRanges.set(cidr, ipaddr.parseCIDR(cidr)).get(cidr)!;
}

function rule(what: string, cidrs: string[]): AddressRule {
	return { what, ranges: cidrs.map(range) };
}

/** Refused in every mode. Metadata comes first: those addresses also sit in link-local, ULA and CGNAT. */
function alwaysRefused(): AddressRule[] {
	return [
		rule('a cloud metadata address', [
			'169.254.169.254/32',
			'169.254.170.2/32',
			'169.254.170.23/32',
			'100.100.100.200/32',
			'168.63.129.16/32',
			'fd00:ec2::254/128',
			'fd00:ec2::23/128'
		]),
		rule('an unspecified ("this network") address', ['0.0.0.0/8', '::/128']),
		rule('the broadcast address', ['255.255.255.255/32']),
		rule('a multicast address', ['224.0.0.0/4', 'ff00::/8']),
		rule('a Teredo tunnel address, whose IPv4 end cannot be checked', ['2001::/32']),
		rule('a reserved address', [
			'240.0.0.0/4',
			'192.0.0.0/24',
			'192.0.2.0/24',
			'192.88.99.0/24',
			'198.51.100.0/24',
			'203.0.113.0/24',
			'100::/64',
			'2001:db8::/32',
			'3fff::/20'
		])
	];
}

/** Refused in hosted mode, allowed in local mode. */
function refusedWhenHosted(): AddressRule[] {
	return [
		rule('a loopback address', ['127.0.0.0/8', '::1/128']),
		rule('a private network address', [
			'10.0.0.0/8',
			'172.16.0.0/12',
			'192.168.0.0/16',
			'fec0::/10'
		]),
		rule('a link-local address', ['169.254.0.0/16', 'fe80::/10']),
		rule('a unique local (private IPv6) address', ['fc00::/7']),
		rule('a shared (carrier-grade NAT) address', ['100.64.0.0/10']),
		rule('a benchmarking address', ['198.18.0.0/15', '2001:2::/48']),
		rule('a local-use NAT64 address', ['64:ff9b:1::/48'])
	];
}

const ALWAYS_TAIL = 'the playground never connects to it.';
const HOSTED_TAIL = 'the hosted playground only connects to public addresses.';

interface Refusal {
	rule: AddressRule;
	tail: string;
}

function inRule(ip: Ip, r: AddressRule): boolean {
	return r.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
}

function findRefusal(ip: Ip, policy: GuardPolicy): Refusal | null {
	const always = alwaysRefused().find((r) => inRule(ip, r));
	if (always) return { rule: always, tail: ALWAYS_TAIL };
	if (policy.mode === 'local') return null;
	const hosted = refusedWhenHosted().find((r) => inRule(ip, r));
	return hosted ? { rule: hosted, tail: HOSTED_TAIL } : null;
}

/** The IPv4 address held in two 16-bit groups of an IPv6 address, from group `at` on. */
function ipv4At(ip: ipaddr.IPv6, at: number): ipaddr.IPv4 {
	const hi = ip.parts[at] ?? 0;
	const lo = ip.parts[at + 1] ?? 0;
	return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

interface Embedding {
	/** Completes "<address> is ... for <IPv4>". */
	what: string;
	extract: (ip: ipaddr.IPv6) => ipaddr.IPv4 | null;
}

function embedding(what: string, cidr: string, at: number, except?: string): Embedding {
	const within = range(cidr);
	const excluded = except === undefined ? null : range(except);
	return {
		what,
		extract: (ip) => (ip.match(within) && !(excluded && ip.match(excluded)) ? ipv4At(ip, at) : null)
	};
}

/** IPv6 forms that carry an IPv4 address (the prefixes do not overlap). */
function embeddings(): Embedding[] {
	return [
		embedding('an IPv4-mapped IPv6 address', '::ffff:0:0/96', 6),
		embedding('an IPv4-translated IPv6 address', '::ffff:0:0:0/96', 6),
		// :: and ::1 are the IPv6 unspecified and loopback addresses, judged as such.
		embedding('an IPv4-compatible IPv6 address', '::/96', 6, '::/127'),
		embedding('a NAT64 address', '64:ff9b::/96', 6),
		embedding('a 6to4 address', '2002::/16', 1)
	];
}

/**
 * Dotted-decimal IPv4 or IPv6 text (a zone such as %eth0 allowed); anything else is undefined.
 * node:net's isIP decides what counts as an address, as it does when a socket connects; IPv6 text is
 * then written in the WHATWG URL parser's canonical form, because ipaddr.js reads a dotted tail
 * loosely ("::ffff:0177.0.0.1", "::1.2.3.4" as if IPv4-mapped).
 */
function parseIp(text: string): Ip | undefined {
	const kind = isIP(text);
	if (kind === 4) return ipaddr.IPv4.parse(text);
	if (kind !== 6) return undefined;
	// Text that isIP takes for IPv6 (zone removed) the URL parser takes too; should the two ever
	// differ, the address is refused instead of throwing.
	try {
		return ipaddr.IPv6.parse(new URL(`http://[${text.split('%')[0]}]/`).hostname.slice(1, -1));
	} catch {
		return undefined;
	}
}

/** Checks one resolved IP address (v4 or v6 text). */
export function checkAddress(ip: string, policy: GuardPolicy): GuardResult {
	const addr = parseIp(ip);
	if (addr === undefined)
		return refuse(
			`"${ip}" is not an IP address; the playground only connects to checked addresses.`
		);
	const direct = findRefusal(addr, policy);
	if (direct) return refuse(`${ip} is ${direct.rule.what}; ${direct.tail}`);
	if (addr instanceof ipaddr.IPv6) {
		for (const embedding of embeddings()) {
			const v4 = embedding.extract(addr);
			if (v4 === null) continue;
			const inner = findRefusal(v4, policy);
			if (inner)
				return refuse(
					`${ip} is ${embedding.what} for ${v4.toString()}, which is ${inner.rule.what}; ${inner.tail}`
				);
		}
	}
	return OK;
}

// ---------------------------------------------------------------------------------------------
// DNS: resolve once, check every answer, connect to what was checked

type Answer = { address: string; family: number };
type Resolve = (host: string, options: { family: 0 | 4 | 6; hints?: number }) => Promise<Answer[]>;

const systemResolver: Resolve = (host, { family, hints }) =>
	dnsLookup(host, { all: true, family, hints });

function familyOf(value: number | 'IPv4' | 'IPv6' | undefined): 0 | 4 | 6 {
	if (value === 4 || value === 'IPv4') return 4;
	if (value === 6 || value === 'IPv6') return 6;
	return 0;
}

function guardError(reason: string): NodeJS.ErrnoException {
	const err: NodeJS.ErrnoException = new Error(reason);
	err.code = 'EGUARD';
	return err;
}

function notFound(host: string): NodeJS.ErrnoException {
	const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
	err.code = 'ENOTFOUND';
	err.syscall = 'getaddrinfo';
	return err;
}

/**
 * A `lookup` for node:http/https request or agent options. Answers both forms: `{ all: true }`
 * (Node's net asks for that when autoSelectFamily is on) with the list, otherwise the first address.
 * The resolver (asked for every address of the family wanted) is injectable for tests; by default
 * it is dns.lookup.
 */
export function guardedLookup(policy: GuardPolicy, resolver?: Resolve): LookupFunction {
	const resolve = resolver ?? systemResolver;
	return (hostname, options, callback) => {
		const family = familyOf(options.family);
		const answer = (answers: Answer[]) => {
			for (const { address } of answers) {
				const result = checkAddress(address, policy);
				if (!result.ok) return callback(guardError(result.reason), '');
			}
			const usable = answers.filter((a) => family === 0 || a.family === family);
			const first = usable[0];
			if (first === undefined) return callback(notFound(hostname), '');
			if (options.all) {
				const list: LookupAddress[] = usable.map((a) => ({ address: a.address, family: a.family }));
				return callback(null, list);
			}
			return callback(null, first.address, first.family);
		};
		Promise.resolve()
			.then(() => resolve(hostname, { family, hints: options.hints }))
			.then(answer, (err: NodeJS.ErrnoException) => callback(err, ''));
	};
}
