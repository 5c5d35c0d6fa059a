/**
 * Every environment variable the playground reads, parsed in one place: `parseConfig(env)` takes an
 * environment and returns the whole typed configuration, or throws one `ConfigError` whose message
 * names every variable with a bad value. It is pure (it reads a file only when PLAYGROUND_PRESETS or
 * SANDBOX_CLIENTS names one) and written in JavaScript with JSDoc types, so that `scripts/serve.js`
 * (plain Node, before the build is loaded), the server (`env.ts`, from `$env/dynamic/private`) and the
 * tests all call the same function. docs/configuration.md's table lists the same variables with
 * the same defaults; a unit test holds the two together.
 *
 * Each variable's schema turns its text into a value (a blank value counts as unset). An issue's
 * message continues the variable's name: "PORT" + " must be …".
 *
 * The entries of PLAYGROUND_PRESETS are setups, so presets.ts checks them against the protocol's
 * setup schema (TypeScript, out of reach of serve.js); here they are only loaded.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** @typedef {'local' | 'hosted'} GuardMode */
/**
 * @typedef {object} GuardPolicy
 * @property {GuardMode} mode
 * @property {string[]} allowedHosts Host patterns, lowercase, each with an optional port: `feeds.example.com`
 *   or `*.example.com` (ports 80 and 443 only), `feeds.example.com:8443` (that port only). Used in hosted mode.
 */
/**
 * @typedef {object} Limits
 * @property {number} connectTimeoutMs
 * @property {number} totalTimeoutMs
 * @property {number} maxResponseBytes
 * @property {number} maxRequestBytes
 */
/**
 * @typedef {object} RateLimitConfig
 * @property {number} limit Attempts allowed per window; 0 = off.
 * @property {number} windowS
 */
/** @typedef {'read' | 'read write'} SandboxScope */
/**
 * @typedef {object} SandboxClient
 * @property {string} client_id
 * @property {string} client_secret
 * @property {string} name
 * @property {SandboxScope} default_scope The registration's scope setting: used when `scope` is empty, and the most it can ever get.
 * @property {string[]} redirect_uris Exact redirect URIs. Built-in clients have none here: theirs follow the request's origin.
 * @property {boolean} builtin
 * @property {number} [access_ttl]
 * @property {number} [zone1_limit]
 * @property {number} [zone2_limit]
 * @property {boolean} [require_pkce] The registration requires PKCE (RFC 7636): the service's API docs don't, so only a SANDBOX_CLIENTS entry can ask for it.
 */
/**
 * @typedef {object} SandboxConfig
 * @property {boolean} enabled SANDBOX is not `off`. When it is off, the other SANDBOX_ variables are not read.
 * @property {number} accessTtl
 * @property {number} codeTtl
 * @property {number} refreshTtl
 * @property {number} refreshReuseWindow SANDBOX_REFRESH_REUSE_SECONDS: how many seconds the previous refresh token is accepted again after it was replaced; 0, never.
 * @property {number} zone1Limit
 * @property {number} zone2Limit
 * @property {number} limitWindow
 * @property {SandboxClient[]} extraClients Clients from SANDBOX_CLIENTS (the built-ins are in clients.ts).
 * @property {string} [origin] The `ORIGIN` variable, normalized, when set and a valid http(s) origin.
 */
/**
 * @typedef {object} Config
 * @property {string} host Address to listen on.
 * @property {number} port Port to listen on.
 * @property {string} [origin] The public origin (ORIGIN) as given; adapter-node checks its form.
 * @property {{ protocolHeader?: string, hostHeader?: string, portHeader?: string, addressHeader?: string, xffDepth?: string, trusted: string[] }} proxy
 *   adapter-node's proxy settings (adapter-node reads and checks them itself), and `trusted`: the
 *   PLAYGROUND_TRUSTED_PROXIES entries as CIDRs (`10.0.0.2/32`), the only peers whose proxy headers
 *   the server believes (`isTrustedProxy`).
 * @property {string} bodySizeLimit adapter-node's BODY_SIZE_LIMIT.
 * @property {string[] | undefined} sessionKeys The PLAYGROUND_SESSION_KEY keys, the current one first; undefined: use the local key file.
 * @property {GuardPolicy} policy The outbound policy.
 * @property {Limits} limits
 * @property {RateLimitConfig} rateLimit
 * @property {number} maxInFlight Outbound requests one client address may have in flight at once; 0 = no cap.
 * @property {string[]} servedHosts PLAYGROUND_SERVED_HOSTS: host name patterns (lowercase, `*.` wildcards)
 *   this server answers besides ORIGIN's host (or, without ORIGIN, localhost and IP literals); see server/hosts.ts.
 * @property {unknown[]} presets The PLAYGROUND_PRESETS entries, as loaded (presets.ts checks them).
 * @property {boolean} log The request log is on.
 * @property {SandboxConfig} sandbox
 * @property {number} workers PLAYGROUND_WORKERS: server processes on one port (node:cluster); more than one needs REDIS_URL.
 * @property {{ redisUrl?: string, unsafe?: 'accept' }} store REDIS_URL: where the sandbox keeps its codes, grants and
 *   consent decisions; unset, this process's memory. `unsafe`: PLAYGROUND_STORE_UNSAFE, hosted mode
 *   may start on a server that can forget them (no persistence, eviction, settings unknown).
 * @property {string[]} warnings What the start prints as warnings: settings accepted on purpose that
 *   weaken a check (a catch-all PLAYGROUND_TRUSTED_PROXIES with PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL).
 */

export class ConfigError extends Error {
	/** @param {string[]} problems */
	constructor(problems) {
		super(
			problems.length === 1
				? problems[0]
				: `the configuration has ${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`
		);
		this.name = 'ConfigError';
		this.problems = problems;
	}
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/** @param {string | undefined} raw */
const isBlank = (raw) => raw === undefined || raw.trim() === '';

/**
 * A variable whose text becomes a value. `read` returns the value, or calls `fail` with one or more
 * messages, each continuing the variable's name.
 * @template T
 * @param {(raw: string | undefined, fail: (...messages: string[]) => never) => T} read
 */
function variable(read) {
	return z
		.string()
		.optional()
		.transform((raw, ctx) =>
			read(raw, (...messages) => {
				for (const message of messages) ctx.issues.push({ code: 'custom', message, input: raw });
				return z.NEVER;
			})
		);
}

/** Free text; blank is unset. @param {string} [fallback] */
const text = (fallback) =>
	variable((raw) => (isBlank(raw) ? fallback : /** @type {string} */ (raw)));

/** Text kept exactly as given (no trimming, '' counts as set), as adapter-node reads it. */
const verbatim = () => variable((raw) => raw);

/**
 * A whole number ≥ min, read with Number() (so " 5 " and "1e3" count).
 * @param {number | undefined} fallback
 * @param {number} min
 */
const wholeNumber = (fallback, min = 1) =>
	variable((raw, fail) => {
		if (isBlank(raw)) return fallback;
		const n = Number(raw);
		if (!Number.isInteger(n) || n < min)
			return fail(` must be a whole number ≥ ${min}, got "${raw}"`);
		return n;
	});

const DAY = 24 * 60 * 60;
const MAX_SANDBOX_NUMBER = 10 * 365 * DAY;

/**
 * A whole number of `unit` from `min` (0 or 1) to ten years' worth, digits only.
 * @param {number} fallback
 * @param {string} unit
 * @param {0 | 1} min
 */
const count = (fallback, unit, min) =>
	variable((raw, fail) => {
		if (isBlank(raw)) return fallback;
		const digits = /** @type {string} */ (raw).trim();
		if (!/^\d+$/.test(digits) || Number(digits) < min || Number(digits) > MAX_SANDBOX_NUMBER)
			return fail(
				min === 1
					? ` must be a positive whole number of ${unit} (at most ${MAX_SANDBOX_NUMBER}), got ${JSON.stringify(raw)}`
					: ` must be a whole number of ${unit} from 0 to ${MAX_SANDBOX_NUMBER}, got ${JSON.stringify(raw)}`
			);
		return Number(digits);
	});

/** A positive whole number of `unit`, digits only, at most ten years' worth. @param {number} fallback @param {string} unit */
const positiveCount = (fallback, unit) => count(fallback, unit, 1);

/**
 * THE loader of values that hold inline JSON (starting with `[` or `{`) or the path of a JSON file.
 * Returns the entries (one object counts as a list of one), or the problem, which continues the
 * variable's name: ` (inline JSON): not valid JSON: …`, ` (file "x.json"): the file cannot be read (ENOENT)`.
 * @param {string | undefined} raw
 * @returns {{ entries: unknown[], where: string } | { problem: string }}
 */
function jsonOrFile(raw) {
	if (raw === undefined || raw.trim() === '') return { entries: [], where: '' };
	const value = raw.trim();
	const inline = value.startsWith('[') || value.startsWith('{');
	const where = inline ? ' (inline JSON)' : ` (file ${JSON.stringify(value)})`;
	let source = value;
	if (!inline) {
		try {
			source = readFileSync(value, 'utf8');
		} catch (e) {
			const code = /** @type {NodeJS.ErrnoException} */ (e).code ?? 'error';
			return { problem: `${where}: the file cannot be read (${code})` };
		}
	}
	try {
		const data = JSON.parse(source);
		return { entries: Array.isArray(data) ? data : [data], where };
	} catch (e) {
		return { problem: `${where}: not valid JSON: ${/** @type {Error} */ (e).message}` };
	}
}

// ---------------------------------------------------------------------------------------------
// The outbound policy: PLAYGROUND_MODE and PLAYGROUND_ALLOWED_HOSTS

const mode = variable((raw, fail) => {
	const value = raw?.trim().toLowerCase() ?? '';
	if (value === '') return undefined;
	if (value === 'local' || value === 'hosted') return /** @type {GuardMode} */ (value);
	return fail(` must be "local" or "hosted", not "${raw}".`);
});

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_PATTERN = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*$`);

/**
 * A comma-separated list of host patterns (`feeds.example.com`, `*.example.com`, one trailing dot
 * ignored), lowercase; with `ports`, each may end in `:port` (1 to 65535, kept in the pattern).
 * @param {{ ports: boolean, example: string }} options
 */
const hostList = ({ ports, example }) =>
	variable((raw, fail) => {
		if (isBlank(raw)) return undefined;
		const parts = /** @type {string} */ (raw)
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean);
		if (parts.length === 0) return fail(' is set but holds no host pattern.');
		/** @type {string[]} */
		const patterns = [];
		for (const part of parts) {
			const lower = part.toLowerCase();
			const withPort = ports ? /^(.*?):(\d{1,5})$/.exec(lower) : null;
			const portNumber = withPort ? Number(withPort[2]) : undefined;
			const name = (withPort ? /** @type {string} */ (withPort[1]) : lower).replace(/\.$/, '');
			if (
				name.length > 253 ||
				!HOST_PATTERN.test(name) ||
				(portNumber !== undefined && (portNumber < 1 || portNumber > 65535))
			)
				return fail(
					`: "${part}" is not a host pattern. Expected ${example}: no scheme${ports ? '' : ', port'} or path, ` +
						'and internationalised names in their xn-- form.'
				);
			patterns.push(portNumber === undefined ? name : `${name}:${portNumber}`);
		}
		return patterns;
	});

const allowedHosts = hostList({
	ports: true,
	example:
		'a host name such as feeds.example.com or a wildcard such as *.example.com, ' +
		'optionally with a port (feeds.example.com:8443)'
});

const servedHosts = hostList({
	ports: false,
	example: 'a host name such as playground.example or a wildcard such as *.example.com'
});

/**
 * True when the server's HOST is unset or a loopback address, so only this machine can reach it.
 * @param {string | undefined} host
 */
function isLoopbackHost(host) {
	const h = (host ?? '')
		.trim()
		.toLowerCase()
		.replace(/^\[(.*)\]$/, '$1');
	if (h === '' || h === 'localhost' || h === 'localhost.') return true;
	const kind = isIP(h);
	if (kind === 4) return ipaddr.IPv4.parse(h).range() === 'loopback';
	if (kind !== 6) return false;
	try {
		// The WHATWG URL parser's canonical form, as guard.ts reads IPv6 text.
		const canonical = new URL(`http://[${h.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
		return ipaddr.IPv6.parse(canonical).range() === 'loopback';
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------------------------------------
// The proxy: PLAYGROUND_TRUSTED_PROXIES and the headers believed only from it

/**
 * The protocol header scripts/serve.js names in PROTOCOL_HEADER when none is set (and ORIGIN is
 * not): it writes that header itself on every request, whatever the client sent, so it needs no
 * trusted proxy.
 */
export const OWN_PROTOCOL_HEADER = 'x-playground-protocol';

/**
 * An address as ipaddr.js reads it, an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, as a
 * dual-stack socket reports IPv4 peers) as its IPv4 address; null when it is none.
 * @param {string} text
 */
function parseAddress(text) {
	try {
		return ipaddr.process(text);
	} catch {
		return null;
	}
}

const trustedProxies = variable((raw, fail) => {
	if (isBlank(raw)) return undefined;
	const entries = /** @type {string} */ (raw)
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	if (!entries.length) return fail(' is set but holds no address');
	/** @type {string[]} */
	const cidrs = [];
	/** The entries of each family, with the range of addresses each covers, for the catch-all check. */
	/** @type {{ IPv4: { entry: string, first: bigint, last: bigint }[], IPv6: { entry: string, first: bigint, last: bigint }[] }} */
	const ranges = { IPv4: [], IPv6: [] };
	/** @type {string[]} */
	const problems = [];
	for (const entry of entries) {
		const [address = '', bits, ...rest] = entry.split('/');
		// Four dotted numbers for IPv4: ipaddr.js would also read `10.1` or `167772161`.
		const strict = address.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(address);
		const ip = !strict || address.includes('%') || rest.length ? null : parseAddress(address);
		const max = ip?.kind() === 'ipv4' ? 32 : 128;
		// A mapped IPv6 prefix (::ffff:10.0.0.0/104) is its IPv4 prefix, 96 bits shorter.
		const mapped = ip?.kind() === 'ipv4' && address.includes(':') ? 96 : 0;
		const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) - mapped : NaN;
		if (!ip || !(prefix >= 0 && prefix <= max)) {
			problems.push(
				`: ${JSON.stringify(entry)} is not an IP address or CIDR (such as 10.0.0.2, 172.30.80.0/24 or fd00::/8)`
			);
			continue;
		}
		// The network's first address, so that `10.1.2.3/8` is written 10.0.0.0/8.
		const network =
			ip.kind() === 'ipv4'
				? ipaddr.IPv4.networkAddressFromCIDR(`${ip}/${prefix}`)
				: ipaddr.IPv6.networkAddressFromCIDR(`${ip}/${prefix}`);
		cidrs.push(`${network}/${prefix}`);
		const first = toBigInt(network.toByteArray());
		const last = first + (1n << BigInt(max - prefix)) - 1n;
		ranges[ip.kind() === 'ipv4' ? 'IPv4' : 'IPv6'].push({ entry, first, last });
	}
	if (problems.length) return fail(...problems);
	// Every address of a family, in one entry (0.0.0.0/0, ::/0, ::ffff:0:0/96) or in several that
	// together leave no gap (0.0.0.0/1 with 128.0.0.0/1): refused unless accepted.
	/** @type {{ entry: string, family: string }[]} */
	const catchAll = [];
	for (const [family, bits] of /** @type {const} */ ([
		['IPv4', 32],
		['IPv6', 128]
	])) {
		const covering = coverAll(ranges[family], bits);
		if (covering) catchAll.push({ entry: covering.join(', '), family });
	}
	return { cidrs, catchAll };
});

/** @param {number[]} bytes an address's bytes, most significant first */
function toBigInt(bytes) {
	return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

/**
 * The entries that together cover every address of a `bits`-bit family, fewest first: the one that
 * alone covers it all, or else all the entries; undefined when some address is left out.
 * @param {{ entry: string, first: bigint, last: bigint }[]} ranges
 * @param {number} bits
 * @returns {string[] | undefined}
 */
function coverAll(ranges, bits) {
	const end = (1n << BigInt(bits)) - 1n;
	const whole = ranges.find((r) => r.first === 0n && r.last === end);
	if (whole) return [whole.entry];
	let next = 0n;
	for (const r of [...ranges].sort((a, b) =>
		a.first < b.first ? -1 : a.first > b.first ? 1 : 0
	)) {
		if (r.first > next) return undefined;
		if (r.last >= next) next = r.last + 1n;
		if (next > end) return ranges.map((x) => x.entry);
	}
	return undefined;
}

/**
 * Whether the connection's peer is one of the trusted proxies: their headers (HOST_HEADER,
 * PROTOCOL_HEADER, PORT_HEADER, ADDRESS_HEADER) are believed only on its connections. An IPv4-mapped
 * IPv6 peer counts as its IPv4 address, an IPv6 zone (`%eth0`) is dropped; no peer, or none known
 * (dev and preview have no socket to ask), is never trusted.
 * @param {string | undefined} peer the socket's remote address
 * @param {readonly string[]} trusted `Config['proxy']['trusted']`
 */
export function isTrustedProxy(peer, trusted) {
	const ip = peer ? parseAddress(peer.replace(/%.*$/, '')) : null;
	if (!ip) return false;
	return trusted.some((cidr) => {
		const [range, bits] = ipaddr.parseCIDR(cidr);
		return range.kind() === ip.kind() && ip.match(range, bits);
	});
}

/** The proxy headers that only a trusted proxy's connection may carry. */
const PROXY_HEADERS = /** @type {const} */ ([
	'HOST_HEADER',
	'PROTOCOL_HEADER',
	'PORT_HEADER',
	'ADDRESS_HEADER'
]);

/**
 * Why a catch-all PLAYGROUND_TRUSTED_PROXIES entry (see `trustedProxies`) is dangerous: it makes
 * every peer a proxy, so any client could name the host the host check reads, the protocol, the port
 * and the address the limits count.
 * @param {{ entry: string, family: string }} catchAll
 */
const catchAllDanger = ({ entry, family }) =>
	`PLAYGROUND_TRUSTED_PROXIES: ${JSON.stringify(entry)} trusts every ${family} address as a proxy, ` +
	`so any client that reaches the server could set the host the host check reads (HOST_HEADER), ` +
	`the protocol, the port and the client address the limits count (ADDRESS_HEADER).`;

/**
 * Why the proxy settings cannot start: a proxy header with no PLAYGROUND_TRUSTED_PROXIES to believe
 * it from, a host, protocol or port header with ORIGIN (adapter-node ignores them then, so the
 * host check would be their only reader, and a direct client could name ORIGIN's host in one), or a
 * catch-all list not accepted with PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL.
 * @param {{ ORIGIN?: string, PLAYGROUND_TRUSTED_PROXIES?: { cidrs: string[], catchAll: { entry: string, family: string }[] }, PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL?: 'accept' } & { [name in typeof PROXY_HEADERS[number]]?: string }} v
 *   the parsed variables
 * @returns {string[]}
 */
function proxyProblems(v) {
	/** @param {typeof PROXY_HEADERS[number]} name */
	const isSet = (name) => !isBlank(v[name]);
	const own = (v.PROTOCOL_HEADER ?? '').trim().toLowerCase() === OWN_PROTOCOL_HEADER;
	const set = PROXY_HEADERS.filter((name) => isSet(name) && !(name === 'PROTOCOL_HEADER' && own));
	/** @type {string[]} */
	const problems = [];
	if (v.ORIGIN !== undefined)
		for (const name of PROXY_HEADERS.filter((n) => n !== 'ADDRESS_HEADER' && isSet(n)))
			problems.push(
				`${name} is set together with ORIGIN, and adapter-node ignores it then (ORIGIN gives the ` +
					`protocol, host and port): only the host check would read it, and a client could name ` +
					`ORIGIN's host in it. Unset ${name}; ORIGIN is the public origin the proxy serves.`
			);
	if (v.PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL !== 'accept')
		for (const catchAll of v.PLAYGROUND_TRUSTED_PROXIES?.catchAll ?? [])
			problems.push(
				`${catchAllDanger(catchAll)} Name the proxy's own address or network instead (e.g. ` +
					`10.0.0.2 or 172.30.80.0/24); if only proxies can reach this server, accept it with ` +
					`PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept.`
			);
	if (!v.PLAYGROUND_TRUSTED_PROXIES?.cidrs.length)
		for (const name of set.filter((n) => !(v.ORIGIN !== undefined && n !== 'ADDRESS_HEADER')))
			problems.push(
				`${name} is set, but PLAYGROUND_TRUSTED_PROXIES is not: the header is believed only on ` +
					`connections from the proxy, so that a client reaching the server directly cannot forge ` +
					`it. Set PLAYGROUND_TRUSTED_PROXIES to the proxy's address or network (e.g. 10.0.0.2 or ` +
					`172.30.80.0/24), or unset ${name}.`
			);
	return problems;
}

// ---------------------------------------------------------------------------------------------
// SANDBOX_CLIENTS

/** The built-in sandbox clients' ids (their registrations are in the sandbox's clients.ts). */
export const SANDBOX_BUILTIN_CLIENT_IDS = /** @type {const} */ ([
	'sandbox-rw',
	'sandbox-ro',
	'sandbox-short'
]);

/** RFC 6749 §3.1.2: an absolute URI, no fragment. The sandbox also wants http or https. */
const redirectUri = z.string().refine(
	(value) => {
		try {
			const url = new URL(value);
			return (url.protocol === 'http:' || url.protocol === 'https:') && !value.includes('#');
		} catch {
			return false;
		}
	},
	{ error: 'must be an absolute http(s) URL without a fragment' }
);

const positiveInt = z
	.int({ error: 'must be a positive whole number' })
	.min(1, { error: 'must be a positive whole number' })
	.max(MAX_SANDBOX_NUMBER, { error: `must be at most ${MAX_SANDBOX_NUMBER}` });

/** RFC 6749 Appendix A.1/A.2: client_id and client_secret are visible ASCII (VSCHAR). */
const vschar = z
	.string({ error: 'must be a string' })
	.min(1, { error: 'must not be empty' })
	.max(200, { error: 'must be at most 200 characters' })
	.regex(/^[\x20-\x7e]+$/, { error: 'must be printable ASCII' });

const clientEntrySchema = z.strictObject({
	client_id: vschar,
	client_secret: vschar,
	name: z
		.string({ error: 'must be a string' })
		.min(1, { error: 'must not be empty' })
		.max(100, { error: 'must be at most 100 characters' })
		.optional(),
	redirect_uris: z
		.array(redirectUri, { error: 'must be an array of URLs' })
		.min(1, { error: 'must list at least one URL' }),
	default_scope: z.enum(['read', 'read write'], { error: 'must be "read" or "read write"' }),
	access_ttl: positiveInt.optional(),
	zone1_limit: positiveInt.optional(),
	zone2_limit: positiveInt.optional(),
	require_pkce: z.boolean({ error: 'must be true or false' }).optional()
});

/** @param {PropertyKey[]} path */
function formatPath(path) {
	let out = '';
	for (const part of path)
		out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
	return out;
}

const sandboxClients = variable((raw, fail) => {
	const loaded = jsonOrFile(raw);
	if ('problem' in loaded) return fail(loaded.problem);
	const { entries, where } = loaded;
	/** @type {string[]} */
	const problems = [];
	/** @type {{ client: SandboxClient, index: number }[]} */
	const clients = [];
	entries.forEach((entry, index) => {
		const id =
			entry &&
			typeof entry === 'object' &&
			typeof (/** @type {{ client_id?: unknown }} */ (entry).client_id) === 'string'
				? ` (client_id ${JSON.stringify(/** @type {{ client_id: string }} */ (entry).client_id)})`
				: '';
		const label = `${where}: entry ${index}${id}`;
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
			problems.push(`${label}: must be an object`);
			return;
		}
		const result = clientEntrySchema.safeParse(entry);
		if (!result.success) {
			for (const issue of result.error.issues) {
				if (issue.code === 'unrecognized_keys')
					problems.push(
						`${label}: unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
					);
				else if (issue.code === 'invalid_type' && issue.input === undefined)
					problems.push(`${label}: field ${formatPath(issue.path)} is required`);
				else problems.push(`${label}: field ${formatPath(issue.path)} ${issue.message}`);
			}
			return;
		}
		const c = result.data;
		clients.push({
			index,
			client: {
				client_id: c.client_id,
				client_secret: c.client_secret,
				name: c.name ?? c.client_id,
				default_scope: c.default_scope,
				redirect_uris: c.redirect_uris,
				builtin: false,
				...(c.access_ttl !== undefined && { access_ttl: c.access_ttl }),
				...(c.zone1_limit !== undefined && { zone1_limit: c.zone1_limit }),
				...(c.zone2_limit !== undefined && { zone2_limit: c.zone2_limit }),
				...(c.require_pkce && { require_pkce: true })
			}
		});
	});
	/** @type {Set<string>} */
	const seen = new Set();
	/** @type {readonly string[]} */
	const builtinIds = SANDBOX_BUILTIN_CLIENT_IDS;
	for (const { client, index } of clients) {
		const label = `${where}: entry ${index} (client_id ${JSON.stringify(client.client_id)})`;
		if (builtinIds.includes(client.client_id))
			problems.push(`${label}: field client_id is the id of a built-in client`);
		else if (seen.has(client.client_id))
			problems.push(`${label}: field client_id is registered twice`);
		seen.add(client.client_id);
	}
	return problems.length ? fail(...problems) : clients.map((c) => c.client);
});

/** The fewest bytes a session key may have: a shorter one could be guessed and cookies forged. */
export const MIN_SESSION_KEY_BYTES = 32;

/**
 * A session key's bytes: standard base64 (`openssl rand -base64 32`) or base64url, padded or not.
 * @param {string} text
 * @returns {Buffer | undefined} undefined when the text is neither
 */
export function decodeSessionKey(text) {
	const t = text.trim();
	const standard = /^[A-Za-z0-9+/]+={0,2}$/.test(t);
	if (!standard && !/^[A-Za-z0-9_-]+={0,2}$/.test(t)) return undefined;
	const body = t.replace(/=+$/, '');
	if (body.length % 4 === 1 || (body.length !== t.length && t.length % 4 !== 0)) return undefined;
	return Buffer.from(body, standard ? 'base64' : 'base64url');
}

/** What is wrong with one session key, never quoting it. @param {string} key @param {number} i */
function sessionKeyProblem(key, i, all = /** @type {string[]} */ ([])) {
	const which = all.length > 1 ? `key ${i + 1} of ${all.length}` : 'the key';
	const bytes = decodeSessionKey(key);
	const size = bytes ? bytes.length : Buffer.byteLength(key);
	if (size < MIN_SESSION_KEY_BYTES)
		return `: ${which} is ${size} byte${size === 1 ? '' : 's'}, at least ${MIN_SESSION_KEY_BYTES} are needed; generate one with \`openssl rand -base64 32\``;
	if (!bytes)
		return `: ${which} is not base64 or base64url; generate one with \`openssl rand -base64 32\``;
	return undefined;
}

// ---------------------------------------------------------------------------------------------
// The variables. A default that depends on another variable is documented in words in `meta`.

const port = variable((raw, fail) => {
	if (isBlank(raw)) return 5173;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 0 || n > 65535)
		return fail(` must be a port number (0 to 65535), got "${raw}"`);
	return n;
});

export const variables = z.object({
	HOST: text('127.0.0.1').meta({ description: 'address to listen on' }),
	PORT: port.meta({ description: 'port to listen on' }),
	ORIGIN: text().meta({
		default: 'from the request',
		description:
			"the public origin, e.g. `https://playground.example`. Set it behind a TLS proxy; hosted mode refuses to start without it. Without it, the origin is `http://` + the `Host` header, and the server answers only `localhost`, `*.localhost` and IP addresses (any port), so both `localhost` and `127.0.0.1` work; with it, only ORIGIN's host name (and its loopback twins when it is a loopback one, except from a trusted proxy). Other names get a 403 naming the setting that allows them (DNS rebinding); `/healthz` answers any name. Behind a proxy with `HOST_HEADER` (only without `ORIGIN`), that header's value is checked on the proxy's connections, and so is the connection's own `Host`"
	}),
	PROTOCOL_HEADER: verbatim().meta({
		description:
			"adapter-node's proxy setting: the header holding the protocol the browser used (e.g. `x-forwarded-proto`), for deployments behind a reverse proxy. Believed only from `PLAYGROUND_TRUSTED_PROXIES`; refused at start with `ORIGIN`, which makes adapter-node ignore it"
	}),
	HOST_HEADER: verbatim().meta({
		description:
			"adapter-node's proxy setting: the header holding the host name the browser used (e.g. `x-forwarded-host`); the host check then reads it on the proxy's connections, besides the connection's own `Host`. Refused at start with `ORIGIN`, which makes adapter-node ignore it"
	}),
	PORT_HEADER: verbatim().meta({
		description:
			"adapter-node's proxy setting: the header holding the port the browser used (e.g. `x-forwarded-port`). Refused at start with `ORIGIN`, which makes adapter-node ignore it"
	}),
	ADDRESS_HEADER: verbatim().meta({
		description:
			"adapter-node's proxy setting: the header holding the client's address (e.g. `x-forwarded-for`), so that the limits count each visitor rather than the proxy; believed only from `PLAYGROUND_TRUSTED_PROXIES`"
	}),
	XFF_DEPTH: verbatim().meta({
		description:
			"adapter-node's proxy setting: the number of trusted proxies in front of the server; the client's address is read that many entries from the right of `ADDRESS_HEADER`'s list"
	}),
	PLAYGROUND_TRUSTED_PROXIES: trustedProxies.meta({
		description:
			"comma-separated addresses or CIDRs of the reverse proxy (`10.0.0.2`, `172.30.80.0/24`, `fd00::/8`; IPv4-mapped IPv6 peers count as IPv4). Only a connection from one of them may set the host the host check reads (`HOST_HEADER`), the protocol and port, or the client address the limits count (`ADDRESS_HEADER`); any other connection is judged by its `Host` header and its socket's address. The proxy's own `Host` must be served as well, by the same rule (an upstream IP address only without `ORIGIN`, beside `HOST_HEADER`); otherwise let the proxy pass the browser's `Host`, or add a name browsers use to `PLAYGROUND_SERVED_HOSTS`. Unset, nothing is trusted, and setting any of the four proxy headers without it stops the start; entries that cover every address of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`, or `0.0.0.0/1` with `128.0.0.0/1`) stop it too, unless `PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept`"
	}),
	PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL: variable((raw, fail) => {
		const value = raw?.trim().toLowerCase() ?? '';
		if (value === '') return undefined;
		if (value === 'accept') return /** @type {'accept'} */ ('accept');
		return fail(` must be "accept" or unset, not "${raw}".`);
	}).meta({
		description:
			'`accept`: the server starts even when `PLAYGROUND_TRUSTED_PROXIES` covers every address of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`, or entries that add up to it), which makes every client a proxy whose host, protocol, port and address headers are believed; it then warns at every start. Without it such a list is refused at start with the reason. Only for a server that nothing but its proxies can reach'
	}),
	BODY_SIZE_LIMIT: text().meta({
		default: '= `PLAYGROUND_MAX_REQUEST_BYTES`',
		description: "adapter-node's cap on request bodies sent without a length"
	}),
	PLAYGROUND_SESSION_KEY: variable((raw, fail) => {
		if (isBlank(raw)) return undefined;
		const keys = /** @type {string} */ (raw)
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean);
		if (!keys.length) return fail(' is set but holds no key');
		const problems = keys.map(sessionKeyProblem).filter((p) => p !== undefined);
		return problems.length ? fail(...problems) : keys;
	}).meta({
		default: 'generated',
		description:
			"the key that seals each flow's cookie (JWE, `dir` + A256GCM). One or more keys, comma-separated: the first seals, all of them open (rotation). A key is at least 32 bytes in standard base64 (`openssl rand -base64 32`) or base64url; a shorter key, or other text, is refused at start. When unset, a key is generated once and kept in `.session-key` (ignored by git)"
	}),
	PLAYGROUND_MODE: mode.meta({
		default: '`local` when listening on loopback, else `hosted`',
		description:
			"outbound policy. `local`: loopback and private addresses may be reached (your own servers), and the setup can accept invalid TLS certificates. `hosted`: only `PLAYGROUND_ALLOWED_HOSTS`, never loopback, private, link-local, CGNAT, ULA, multicast or their IPv4-mapped forms. Cloud metadata addresses are refused in both. The built-in sandbox stays usable in hosted mode: requests to `ORIGIN/sandbox/…` go to this server's own listener and nowhere else"
	}),
	PLAYGROUND_ALLOWED_HOSTS: allowedHosts.meta({
		description:
			'comma-separated host names the server may call, `*.example.com` wildcards allowed, each with an optional port: `feeds.example.com` allows ports 80 and 443 only, `feeds.example.com:8443` that port only; setting it means hosted mode'
	}),
	PLAYGROUND_SERVED_HOSTS: servedHosts.meta({
		description:
			"comma-separated host names this server answers besides the ones above (`ORIGIN`'s, or without it localhost and IP addresses), `*.example.com` wildcards allowed, no port: e.g. a LAN name for a local playground. Not to be confused with `PLAYGROUND_ALLOWED_HOSTS`, the names it calls"
	}),
	PLAYGROUND_CONNECT_TIMEOUT_MS: wholeNumber(5_000).meta({
		description: 'connect timeout of outbound requests'
	}),
	PLAYGROUND_TOTAL_TIMEOUT_MS: wholeNumber(15_000).meta({
		description: 'total timeout of outbound requests'
	}),
	PLAYGROUND_MAX_RESPONSE_BYTES: wholeNumber(1024 * 1024).meta({
		description: 'response bodies are cut here and marked truncated'
	}),
	PLAYGROUND_MAX_REQUEST_BYTES: wholeNumber(64 * 1024).meta({
		description: 'larger requests to the playground get 413'
	}),
	PLAYGROUND_RATE_LIMIT: wholeNumber(undefined, 0).meta({
		default: '`60` in hosted mode, off in local mode',
		description:
			"abuse limit: how many outbound steps (exchange, refresh, user-info, API call) one client address may start per window; IPv6 clients count per /64. Over it, the step answers 429 with `Retry-After`. `0` turns it off; setting it in local mode turns it on there. Behind a proxy, set `ADDRESS_HEADER` so the client's own address is counted"
	}),
	PLAYGROUND_RATE_WINDOW: wholeNumber(60).meta({
		description: "the abuse limit's window, seconds"
	}),
	PLAYGROUND_MAX_IN_FLIGHT: wholeNumber(undefined, 0).meta({
		default: '`4` in hosted mode, off in local mode',
		description:
			'how many outbound steps one client address (IPv6: per /64) may have waiting on a service at once, so one visitor cannot hold the shared connection pool. Over it, the step answers 429 and the form keeps what was typed. `0` turns it off; setting it in local mode turns it on there'
	}),
	PLAYGROUND_PRESETS: variable((raw, fail) => {
		const loaded = jsonOrFile(raw);
		return 'problem' in loaded ? fail(loaded.problem) : loaded.entries;
	}).meta({
		description:
			'named presets: inline JSON (starting with `[` or `{`) or a JSON file path. Entries: `name`, `label?`, `description?`, `base_url`, `client_id`, `client_secret?`, and, each optional, the other setup fields a prefilled link may carry (the parameters the playground’s `/link` page lists, but `preset`). A secret stays on the server; `/?preset=NAME` opens one'
	}),
	PLAYGROUND_LOG: text('on').meta({
		description:
			'`off` silences the request log (method, path, status, time: never a query, cookie or body)'
	}),
	SANDBOX: text('on').meta({
		description:
			'`off` turns the built-in sandbox off (its paths answer 404, the presets disappear)'
	}),
	SANDBOX_CLIENTS: sandboxClients.meta({
		description:
			"more sandbox registrations: inline JSON (starting with `[` or `{`) or a JSON file path. Entries: `client_id`, `client_secret`, `name?`, `redirect_uris` (absolute http(s) URLs), `default_scope` (`read` or `read write`), `access_ttl?`, `zone1_limit?`, `zone2_limit?`, `require_pkce?` (`true`: the registration requires PKCE, S256 or plain, so PKCE can be practised offline; the service's API docs have none, so the built-in clients ignore it). A bad value stops the start with a message naming the entry and field"
	}),
	SANDBOX_ACCESS_TTL: positiveCount(3600, 'seconds').meta({
		description: 'access-token lifetime, seconds'
	}),
	SANDBOX_CODE_TTL: positiveCount(60, 'seconds').meta({
		description: 'authorization-code lifetime, seconds'
	}),
	SANDBOX_REFRESH_TTL: positiveCount(30 * DAY, 'seconds').meta({
		description: 'refresh-token lifetime, seconds'
	}),
	SANDBOX_REFRESH_REUSE_SECONDS: count(0, 'seconds', 0).meta({
		description:
			"the refresh-token reuse window, seconds, as Auth0's rotation overlap and Cognito's grace period have one: the immediately previous refresh token, sent less than this long after it was replaced, is accepted any number of times, each time with a new access token and a new refresh token of the same grant, and the current refresh token stays valid. An older one, or the previous one later, revokes every token of the grant. `0`: no window, any replaced refresh token revokes the grant (RFC 9700 §4.14.2). See [the sandbox](sandbox.md)"
	}),
	SANDBOX_ZONE1_LIMIT: positiveCount(100, 'requests').meta({
		description: 'zone-1 (read) calls per client per window'
	}),
	SANDBOX_ZONE2_LIMIT: positiveCount(10, 'requests').meta({
		description: 'zone-2 (write) calls per client per window'
	}),
	SANDBOX_LIMIT_WINDOW: positiveCount(600, 'seconds').meta({
		description: 'rate-limit window, seconds'
	}),
	PLAYGROUND_WORKERS: variable((raw, fail) => {
		if (isBlank(raw)) return 1;
		const text = /** @type {string} */ (raw).trim().toLowerCase();
		if (text === 'auto') return availableParallelism();
		const n = Number(text);
		if (!Number.isInteger(n) || n < 1)
			return fail(` must be a whole number ≥ 1 or "auto", got "${raw}"`);
		return n;
	}).meta({
		description:
			'server processes on one port (`node:cluster`; a worker that dies is replaced); `auto` = the number of cores. More than one needs `REDIS_URL`, and the start is refused without it: each worker would otherwise keep its own single-use codes, refresh-token ids and limits'
	}),
	// Never echoed in a message: the URL may hold a password.
	REDIS_URL: variable((raw, fail) => {
		if (isBlank(raw)) return undefined;
		let url;
		try {
			url = new URL(/** @type {string} */ (raw).trim());
		} catch {
			url = undefined;
		}
		if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname)
			return fail(
				' must be a redis:// or rediss:// URL with a host, such as redis://127.0.0.1:6379 (its value is not repeated here: it may hold a password)'
			);
		return url.href;
	}).meta({
		description:
			"a Redis-protocol server (Valkey or Redis 7), `redis://host:port` or `rediss://` with TLS, where the sandbox keeps its used codes, grants, revocations and consent decisions, shared by every instance that names it; unset, they live in this process's memory. While the server is unreachable the sandbox answers 503 with the reason and the playground's own steps keep working. Its persistence and eviction are checked at start (see `PLAYGROUND_STORE_UNSAFE`). Never logged (it may hold a password)"
	}),
	// Hosted mode refuses to start on a store that can forget used codes, unless this accepts it.
	PLAYGROUND_STORE_UNSAFE: variable((raw, fail) => {
		const value = raw?.trim().toLowerCase() ?? '';
		if (value === '') return undefined;
		if (value === 'accept') return /** @type {'accept'} */ ('accept');
		return fail(` must be "accept" or unset, not "${raw}".`);
	}).meta({
		description:
			'`accept`: hosted mode starts even on a `REDIS_URL` server that can forget what the sandbox keeps (no append-only file, an eviction policy other than `noeviction`, or settings it cannot read), with a warning; without it, hosted mode refuses to start on one and says why. Local mode only warns. See [Operations](operations.md)'
	})
});

/** The abuse limit's default in hosted mode. */
const DEFAULT_RATE_LIMIT = 60;
/** The in-flight cap's default in hosted mode. */
const DEFAULT_MAX_IN_FLIGHT = 4;

/** @param {string | undefined} raw */
function sandboxOrigin(raw) {
	if (!raw || !raw.trim()) return undefined;
	try {
		const url = new URL(raw.trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The whole configuration from an environment. Throws a ConfigError naming every bad value.
 * @param {Record<string, string | undefined>} env
 * @returns {Config}
 */
export function parseConfig(env) {
	const sandboxOn = (env.SANDBOX ?? 'on').toLowerCase() !== 'off';
	// With the sandbox off, its variables are not read (as its routes are not served).
	const input = sandboxOn
		? env
		: Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('SANDBOX_')));
	const parsed = variables.safeParse(input);
	if (!parsed.success)
		throw new ConfigError(
			parsed.error.issues.map((issue) => `${String(issue.path[0])}${issue.message}`)
		);
	const v = parsed.data;

	if (v.PLAYGROUND_ALLOWED_HOSTS && v.PLAYGROUND_MODE === 'local')
		throw new ConfigError([
			'PLAYGROUND_ALLOWED_HOSTS is set, which means hosted mode, but PLAYGROUND_MODE is "local"; unset one of them.'
		]);
	/** @type {GuardPolicy} */
	const policy = v.PLAYGROUND_ALLOWED_HOSTS
		? { mode: 'hosted', allowedHosts: v.PLAYGROUND_ALLOWED_HOSTS }
		: {
				// The mode follows the HOST variable as given: unset is loopback.
				mode: v.PLAYGROUND_MODE ?? (isLoopbackHost(env.HOST) ? 'local' : 'hosted'),
				allowedHosts: []
			};

	// Without ORIGIN the server would take its origin from each request's Host header; the host
	// check (server/hosts.ts) then answers only localhost and IP literals, which a public server is
	// not reached by. Hosted mode must say where it is served.
	if (policy.mode === 'hosted' && !v.ORIGIN)
		throw new ConfigError([
			'ORIGIN is not set, and hosted mode needs it: set ORIGIN to the public origin the playground ' +
				'is served under, e.g. ORIGIN=https://playground.example. Without it the server cannot tell ' +
				'its own pages from a page on another host name (DNS rebinding).'
		]);

	const proxy = proxyProblems(v);
	if (proxy.length) throw new ConfigError(proxy);

	// Each worker is a process of its own: without a shared store each would keep its own
	// single-use codes, refresh-token ids and limits, and a user behind the cluster's round robin
	// would see a code accepted twice and every other refresh refused.
	if (v.PLAYGROUND_WORKERS > 1 && !v.REDIS_URL)
		throw new ConfigError([
			`PLAYGROUND_WORKERS is ${v.PLAYGROUND_WORKERS}, and more than one worker needs REDIS_URL: ` +
				'each worker would otherwise keep its own single-use codes, refresh-token ids and rate ' +
				'limits, so a code could be used twice and a refresh refused by the next worker. Set ' +
				'REDIS_URL to a Valkey or Redis server, or run one worker.'
		]);

	const rateLimitSet = v.PLAYGROUND_RATE_LIMIT !== undefined;
	const limit = v.PLAYGROUND_RATE_LIMIT ?? (policy.mode === 'hosted' ? DEFAULT_RATE_LIMIT : 0);

	return {
		host: /** @type {string} */ (v.HOST),
		port: v.PORT,
		origin: v.ORIGIN,
		proxy: {
			protocolHeader: v.PROTOCOL_HEADER,
			hostHeader: v.HOST_HEADER,
			portHeader: v.PORT_HEADER,
			addressHeader: v.ADDRESS_HEADER,
			xffDepth: v.XFF_DEPTH,
			trusted: v.PLAYGROUND_TRUSTED_PROXIES?.cidrs ?? []
		},
		bodySizeLimit: v.BODY_SIZE_LIMIT ?? String(v.PLAYGROUND_MAX_REQUEST_BYTES),
		sessionKeys: v.PLAYGROUND_SESSION_KEY,
		policy,
		limits: {
			connectTimeoutMs: /** @type {number} */ (v.PLAYGROUND_CONNECT_TIMEOUT_MS),
			totalTimeoutMs: /** @type {number} */ (v.PLAYGROUND_TOTAL_TIMEOUT_MS),
			maxResponseBytes: /** @type {number} */ (v.PLAYGROUND_MAX_RESPONSE_BYTES),
			maxRequestBytes: /** @type {number} */ (v.PLAYGROUND_MAX_REQUEST_BYTES)
		},
		rateLimit: {
			limit: policy.mode === 'local' && !rateLimitSet ? 0 : limit,
			windowS: /** @type {number} */ (v.PLAYGROUND_RATE_WINDOW)
		},
		maxInFlight:
			v.PLAYGROUND_MAX_IN_FLIGHT ?? (policy.mode === 'hosted' ? DEFAULT_MAX_IN_FLIGHT : 0),
		servedHosts: v.PLAYGROUND_SERVED_HOSTS ?? [],
		presets: v.PLAYGROUND_PRESETS,
		log: v.PLAYGROUND_LOG !== 'off',
		sandbox: {
			enabled: sandboxOn,
			accessTtl: v.SANDBOX_ACCESS_TTL,
			codeTtl: v.SANDBOX_CODE_TTL,
			refreshTtl: v.SANDBOX_REFRESH_TTL,
			refreshReuseWindow: v.SANDBOX_REFRESH_REUSE_SECONDS,
			zone1Limit: v.SANDBOX_ZONE1_LIMIT,
			zone2Limit: v.SANDBOX_ZONE2_LIMIT,
			limitWindow: v.SANDBOX_LIMIT_WINDOW,
			extraClients: v.SANDBOX_CLIENTS,
			...(sandboxOrigin(v.ORIGIN) && { origin: sandboxOrigin(v.ORIGIN) })
		},
		store: {
			...(v.REDIS_URL && { redisUrl: v.REDIS_URL }),
			...(v.PLAYGROUND_STORE_UNSAFE && { unsafe: v.PLAYGROUND_STORE_UNSAFE })
		},
		workers: v.PLAYGROUND_WORKERS,
		warnings: (v.PLAYGROUND_TRUSTED_PROXIES?.catchAll ?? []).map(
			(catchAll) =>
				`${catchAllDanger(catchAll)} Accepted by PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept: ` +
				`make sure nothing but your proxies can reach this server.`
		)
	};
}
