/**
 * Redirect-URI near misses. The service compares the redirect_uri it receives with the registered
 * one as strings (RFC 6749 §3.1.2.3, §3.1.2.4; the service's API docs §4.1: "must match"), so a
 * URI that is the same to a person (a trailing slash, `localhost` for `127.0.0.1`, an encoded
 * character) is refused. This module names the difference in one sentence with the fix, or, with
 * no registered value to compare, lists the usual near misses of the URI that was sent. Pure.
 */

/** The parts of an absolute URI as written (RFC 3986 §3), nothing normalized. */
interface Parts {
	scheme: string;
	/** Before an '@' in the authority, without it; undefined when there is no '@'. */
	userinfo?: string;
	/** As written, brackets of an IPv6 literal included. */
	host: string;
	/** The port as written; '' when there is none. */
	port: string;
	path: string;
	/** Without the '?'; undefined when there is no '?'. */
	query?: string;
	/** Without the '#'; undefined when there is no '#'. */
	fragment?: string;
}

/** No `$` at the end: the path, query and fragment groups take every character after the authority. */
const URI =
	/^([A-Za-z][A-Za-z0-9+.-]*):\/\/(?:([^@/?#]*)@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?/s;

function parse(uri: string): Parts | undefined {
	const m = URI.exec(uri);
	if (!m) return undefined;
	return {
		scheme: m[1]!,
		userinfo: m[2],
		host: m[3]!,
		port: m[4] ?? '',
		path: m[5]!,
		query: m[6],
		fragment: m[7]
	};
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

const defaultPort = (p: Parts) => DEFAULT_PORTS[p.scheme.toLowerCase()] ?? '';
const isLoopback = (host: string) => LOOPBACK.includes(host.toLowerCase());

/** One way the registered URI differs from the one sent. */
export type RedirectUriDifference =
	| { kind: 'trailing-slash'; registered: boolean }
	| { kind: 'scheme'; sent: string; registered: string }
	| { kind: 'loopback'; sent: string; registered: string }
	| { kind: 'host'; sent: string; registered: string }
	/** Case only in the scheme or host: no difference by RFC 3986 §6.2.2.1, but not the same string. */
	| { kind: 'host-case'; part: 'scheme' | 'host'; sent: string; registered: string }
	| { kind: 'port'; sent: string; registered: string }
	/** The default port written out on one side only (`:443` for https). */
	| { kind: 'default-port'; port: string; writtenIn: 'sent' | 'registered' }
	| { kind: 'path-case'; sent: string; registered: string }
	/** An example of the encoding that differs: `%7E` against `~`, `%2f` against `%2F`. */
	| { kind: 'encoding'; sent: string; registered: string }
	| { kind: 'path'; sent: string; registered: string }
	/** The user information before the host (`user@`), on one side or different. */
	| { kind: 'userinfo'; sent?: string; registered?: string }
	| { kind: 'query'; sent?: string; registered?: string }
	| { kind: 'fragment'; sent?: string; registered?: string };

interface Unit {
	raw: string;
	value: string;
}

/** A text as characters, a run of percent escapes decoded where it forms UTF-8 (RFC 3986 §2.1). */
function* units(s: string): Generator<Unit> {
	let i = 0;
	while (i < s.length) {
		if (/^%[0-9A-Fa-f]{2}/.test(s.slice(i))) {
			let unit: Unit | undefined;
			// One UTF-8 character is 1 to 4 bytes: the shortest run that decodes (a run cut by another
			// character, or by the end, never decodes).
			for (let len = 3; len <= 12 && !unit; len += 3) {
				const raw = s.slice(i, i + len);
				try {
					unit = { raw, value: decodeURIComponent(raw) };
				} catch {
					// not yet a whole character
				}
			}
			unit ??= { raw: s.slice(i, i + 3), value: s.slice(i, i + 3).toUpperCase() };
			yield unit;
			i += unit.raw.length;
		} else {
			// A whole character, not half of a surrogate pair.
			const c = String.fromCodePoint(s.codePointAt(i)!);
			yield { raw: c, value: c };
			i += c.length;
		}
	}
}

const decoded = (s: string) => Array.from(units(s), (u) => u.value).join('');

/**
 * Where two texts are written differently, an escape on either side: the first such pair of
 * characters, else the whole texts. The callers pass texts that decode the same, where that pair
 * is always found; the whole texts are for any others.
 */
export function encodingExample(
	sent: string,
	registered: string
): { sent: string; registered: string } {
	const a = Array.from(units(sent));
	const b = Array.from(units(registered));
	// Only an escape on either side, not a letter that differs in case as well.
	for (let i = 0; i < Math.min(a.length, b.length); i++)
		if (a[i]!.raw !== b[i]!.raw && (a[i]!.raw[0] === '%' || b[i]!.raw[0] === '%'))
			return { sent: a[i]!.raw, registered: b[i]!.raw };
	return { sent, registered };
}

type PathFix = 'encoding' | 'case' | 'slash';
/** The fewest changes first; an encoding fix before a case one, so `%7e` against `%7E` is an encoding. */
const PATH_FIXES: PathFix[][] = [
	['slash'],
	['encoding'],
	['case'],
	['slash', 'encoding'],
	['slash', 'case'],
	['case', 'encoding'],
	['slash', 'case', 'encoding']
];

function normalizePath(path: string, fixes: PathFix[]): string {
	let p = path;
	if (fixes.includes('encoding')) p = decoded(p);
	if (fixes.includes('case')) p = p.toLowerCase();
	if (fixes.includes('slash')) p = p.replace(/\/$/, '');
	return p;
}

function pathDifferences(sent: string, registered: string): RedirectUriDifference[] {
	if (sent === registered) return [];
	const fixes = PATH_FIXES.find((f) => normalizePath(sent, f) === normalizePath(registered, f));
	if (!fixes) return [{ kind: 'path', sent, registered }];
	const out: RedirectUriDifference[] = [];
	if (fixes.includes('slash'))
		out.push({ kind: 'trailing-slash', registered: registered.endsWith('/') });
	if (fixes.includes('case')) {
		const s = normalizePath(sent, ['encoding']);
		const r = normalizePath(registered, ['encoding']);
		out.push({
			kind: 'path-case',
			sent: fixes.includes('slash') ? s.replace(/\/$/, '') : s,
			registered: fixes.includes('slash') ? r.replace(/\/$/, '') : r
		});
	}
	if (fixes.includes('encoding'))
		out.push({ kind: 'encoding', ...encodingExample(sent, registered) });
	return out;
}

function optionalPart(
	kind: 'query' | 'fragment',
	sent: string | undefined,
	registered: string | undefined
): RedirectUriDifference[] {
	if (sent === registered) return [];
	if (kind === 'query' && sent !== undefined && registered !== undefined) {
		if (decoded(sent) === decoded(registered))
			return [{ kind: 'encoding', ...encodingExample(sent, registered) }];
	}
	return [{ kind, sent, registered }];
}

/**
 * Every way `registered` differs from `sent`, each near miss its own entry; [] when they are the
 * same string; undefined when either is not an absolute URI with an authority (`scheme://host…`).
 */
export function redirectUriDifferences(
	sent: string,
	registered: string
): RedirectUriDifference[] | undefined {
	const s = parse(sent);
	const r = parse(registered);
	if (!s || !r) return undefined;
	const out: RedirectUriDifference[] = [];
	if (s.userinfo !== r.userinfo)
		out.push({ kind: 'userinfo', sent: s.userinfo, registered: r.userinfo });
	const sameScheme = s.scheme.toLowerCase() === r.scheme.toLowerCase();
	if (!sameScheme)
		out.push({ kind: 'scheme', sent: s.scheme.toLowerCase(), registered: r.scheme.toLowerCase() });
	if (s.host.toLowerCase() !== r.host.toLowerCase())
		out.push({
			kind: isLoopback(s.host) && isLoopback(r.host) ? 'loopback' : 'host',
			sent: s.host,
			registered: r.host
		});
	else if (s.host !== r.host || (sameScheme && s.scheme !== r.scheme))
		out.push({
			kind: 'host-case',
			part: s.host !== r.host ? 'host' : 'scheme',
			sent: `${s.scheme}://${s.host}`,
			registered: `${r.scheme}://${r.host}`
		});
	if (s.port !== r.port) {
		const implicit = (p: Parts) => p.port === '' || p.port === defaultPort(p);
		if (implicit(s) && implicit(r))
			out.push({
				kind: 'default-port',
				port: s.port || r.port,
				writtenIn: s.port ? 'sent' : 'registered'
			});
		else
			out.push({
				kind: 'port',
				sent: s.port || defaultPort(s),
				registered: r.port || defaultPort(r)
			});
	}
	out.push(...pathDifferences(s.path, r.path));
	out.push(...optionalPart('query', s.query, r.query));
	out.push(...optionalPart('fragment', s.fragment, r.fragment));
	return out;
}

const WEIGHT: Partial<Record<RedirectUriDifference['kind'], number>> = {
	host: 10,
	path: 10,
	scheme: 3,
	port: 3,
	query: 2
};
const distance = (d: RedirectUriDifference[] | undefined) =>
	d ? d.reduce((n, x) => n + (WEIGHT[x.kind] ?? 1), 0) : Infinity;

/** Of several registered URIs, the one nearest to the URI sent (the first of equals). */
export function nearestRegistered(sent: string, registered: readonly string[]): string | undefined {
	let best: string | undefined;
	let bestDistance = Infinity;
	for (const r of registered) {
		const d = distance(redirectUriDifferences(sent, r));
		if (best === undefined || d < bestDistance) {
			best = r;
			bestDistance = d;
		}
	}
	return best;
}

const code = (s: string) => `\`${s}\``;

function and(items: string[]): string {
	return items.length < 2
		? (items[0] ?? '')
		: `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function phrase(d: RedirectUriDifference): string {
	switch (d.kind) {
		case 'trailing-slash':
			return d.registered ? 'with a trailing slash' : 'without the trailing slash';
		case 'scheme':
		case 'loopback':
			return `with ${d.registered} instead of ${d.sent}`;
		case 'host':
			return `for another host, ${d.registered} instead of ${d.sent}`;
		case 'host-case':
			return `with the ${d.part} in another case, ${code(d.registered)} instead of ${code(d.sent)}`;
		case 'port':
			return `on port ${d.registered} instead of ${d.sent}`;
		case 'default-port':
			return d.writtenIn === 'registered'
				? `with the default port ${code(`:${d.port}`)} written out`
				: `without the default port ${code(`:${d.port}`)}`;
		case 'path-case':
			return `with the path in another case, ${code(d.registered)} instead of ${code(d.sent)}`;
		case 'encoding':
			return `with a character encoded differently, ${code(d.registered)} where ${code(d.sent)} was sent`;
		case 'path':
			return `with another path, ${code(d.registered)} instead of ${code(d.sent)}`;
		case 'userinfo':
			if (d.sent === undefined) return `with the user information ${code(`${d.registered}@`)}`;
			if (d.registered === undefined) return `without the user information ${code(`${d.sent}@`)}`;
			return `with other user information, ${code(`${d.registered}@`)} instead of ${code(`${d.sent}@`)}`;
		case 'query':
		case 'fragment': {
			const mark = d.kind === 'query' ? '?' : '#';
			const name = d.kind === 'query' ? 'query string' : 'fragment';
			if (d.sent === undefined) return `with the ${name} ${code(mark + d.registered)}`;
			if (d.registered === undefined) return `without the ${name} ${code(mark + d.sent)}`;
			return `with another ${name}, ${code(mark + d.registered)} instead of ${code(mark + d.sent)}`;
		}
	}
}

export interface RedirectUriOptions {
	/** The playground's own callback URL: when it was sent, a loopback near miss is fixed by opening the playground on the registered host. */
	callbackUrl?: string;
	/** Who holds the registered value, for the sentence: the setup's field, or the sandbox's own registration. */
	source?: 'setup' | 'sandbox';
}

/**
 * One sentence that names how the registered redirect URI differs from the one sent, with the fix.
 * `registered` may list several URIs (the sandbox's registration): the nearest one is compared.
 */
export function explainRedirectMismatch(
	sent: string,
	registered: string | readonly string[],
	options: RedirectUriOptions = {}
): string {
	const list = typeof registered === 'string' ? [registered] : registered;
	const reg = nearestRegistered(sent, list);
	if (reg === undefined) return usualSuspectsSentence(sent);
	const where =
		options.source === 'sandbox'
			? 'the sandbox’s registration of this client'
			: 'the setup’s “Redirect URI as registered”';
	const diffs = redirectUriDifferences(sent, reg);
	if (!diffs)
		return `The redirect URI sent, ${code(sent)}, and the registered one in ${where}, ${code(reg)}, cannot be compared part by part (one of them is not an absolute URI): register exactly ${code(sent)}, or send exactly ${code(reg)}.`;
	if (!diffs.length && sent !== reg)
		return `The redirect URI sent, ${code(sent)}, is written differently from the registered one in ${where}, ${code(reg)}, though no part of it differs in meaning; this service compares redirect URIs character by character (RFC 6749 §3.1.2.3): send ${code(reg)} exactly as registered.`;
	if (!diffs.length)
		return `The redirect URI sent is exactly the one in ${where}, ${code(reg)}, so the service holds another one for this client: check the registration of this client id in this environment of the service (test or production) and copy its redirect URI from there.`;
	if (diffs.length === 1 && diffs[0]!.kind === 'host-case')
		return `The only difference is the case of the ${diffs[0].part}, ${code(diffs[0].registered)} registered and ${code(diffs[0].sent)} sent, which RFC 3986 §6.2.2.1 counts as no difference, but this service compares redirect URIs character by character (RFC 6749 §3.1.2.3): send ${code(reg)} exactly as registered.`;
	const onlyLoopback = diffs.every((d) => d.kind === 'loopback');
	const fix =
		onlyLoopback && options.callbackUrl === sent
			? `open the playground at ${code(origin(reg))} so that it sends that one, or add ${code(sent)} to the registration`
			: `send exactly that, or add ${code(sent)} to the registration`;
	const whose = options.source === 'sandbox' ? 'The sandbox registered it' : 'It was registered';
	return `${whose} ${and(diffs.map(phrase))}: ${code(reg)}; ${fix}.`;
}

function origin(uri: string): string {
	const p = parse(uri)!;
	return `${p.scheme}://${p.host}${p.port ? `:${p.port}` : ''}`;
}

function format(p: Parts): string {
	return `${p.scheme}://${p.host}${p.port ? `:${p.port}` : ''}${p.path}${p.query === undefined ? '' : `?${p.query}`}${p.fragment === undefined ? '' : `#${p.fragment}`}`;
}

/** Characters a registration form or a framework often percent-encodes, and their escapes. */
const OFTEN_ENCODED: [string, string][] = [
	['~', '%7E'],
	[':', '%3A'],
	['@', '%40'],
	[' ', '%20']
];

/**
 * The usual near misses of a redirect URI, each a way the registered one may differ, specific to
 * the URI that was sent: for `http://localhost:5173/callback`, "with a trailing slash
 * (`http://localhost:5173/callback/`)", "with https (…)", "with 127.0.0.1 instead of localhost (…)".
 */
export function usualSuspects(sent: string): string[] {
	const s = parse(sent);
	if (!s) return [];
	const out: string[] = [];
	const variant = (label: string, change: Partial<Parts>) =>
		out.push(`${label} (${code(format({ ...s, ...change }))})`);
	if (s.path.endsWith('/')) variant('without the trailing slash', { path: s.path.slice(0, -1) });
	else variant('with a trailing slash', { path: `${s.path}/` });
	const scheme = s.scheme.toLowerCase();
	if (scheme === 'http' || scheme === 'https') {
		const other = scheme === 'http' ? 'https' : 'http';
		variant(`with ${other}`, { scheme: other });
	}
	if (isLoopback(s.host))
		for (const host of LOOPBACK.filter((h) => h !== s.host.toLowerCase()))
			variant(`with ${host} instead of ${s.host}`, { host });
	if (s.port && s.port === defaultPort(s)) variant('without the default port', { port: '' });
	else if (s.port) variant(`on another port, or none`, { port: '' });
	else if (defaultPort(s)) variant('with the default port written out', { port: defaultPort(s) });
	if (/[A-Z]/.test(s.path)) variant('with the path in lower case', { path: s.path.toLowerCase() });
	else if (/[a-z]/.test(s.path))
		variant('with capital letters in the path', {
			path: s.path.replace(/([^/]*)(\/?)$/, (_, seg: string, slash: string) =>
				seg ? seg[0]!.toUpperCase() + seg.slice(1) + slash : slash
			)
		});
	const escaped = /%[0-9A-Fa-f]{2}/.exec(s.path) ?? /%[0-9A-Fa-f]{2}/.exec(s.query ?? '');
	const plain = OFTEN_ENCODED.find(([c]) => s.path.includes(c));
	if (escaped && decoded(escaped[0]) !== escaped[0])
		variant(`with ${code(escaped[0])} written as ${code(decoded(escaped[0]))}`, {
			path: s.path.split(escaped[0]).join(decoded(escaped[0])),
			query: s.query?.split(escaped[0]).join(decoded(escaped[0]))
		});
	else if (plain)
		variant(`with ${code(plain[0])} encoded as ${code(plain[1])}`, {
			path: s.path.split(plain[0]).join(plain[1])
		});
	if (s.query !== undefined) variant('without the query string', { query: undefined });
	out.push('for another client id, or in another environment of the service (test or production)');
	return out;
}

function usualSuspectsSentence(sent: string): string {
	const list = usualSuspects(sent);
	if (!list.length)
		return 'Register this exact redirect URI with the application (scheme, host, port and path must match character for character), or use the one that is registered.';
	return `Nothing is entered under “Redirect URI as registered”, so here are the usual near misses of ${code(sent)}; the registration may hold it ${list.join('; ')}: register exactly the one sent, or enter the registered one in the setup to have the difference named.`;
}

/**
 * The fix of a refused redirect URI: the difference from the registered value, when one is known,
 * else the usual suspects of the URI sent; without a URI sent, the general rule.
 */
export function redirectUriFix(
	sent: string | undefined,
	registered: string | readonly string[] | undefined,
	options: RedirectUriOptions = {}
): string {
	if (!sent)
		return 'Register this exact redirect URI with the application (scheme, host, port and path must match character for character), or use the one that is registered.';
	const list =
		registered === undefined ? [] : typeof registered === 'string' ? [registered] : registered;
	const known = list.filter(Boolean);
	return known.length ? explainRedirectMismatch(sent, known, options) : usualSuspectsSentence(sent);
}

/**
 * The registered redirect URI to send instead of `sent` ("Try again with …"): the one registered,
 * or the nearest of several. None when it is the playground's own callback at another address
 * (localhost for 127.0.0.1, say): a redirect there lands on a playground that does not hold this
 * flow, so the fix says to open the playground there instead.
 */
export function retryRedirect(
	sent: string | undefined,
	registered: string | readonly string[] | undefined,
	callbackUrl: string | undefined
): string | undefined {
	const one =
		typeof registered === 'string'
			? registered
			: registered && sent !== undefined
				? nearestRegistered(sent, registered)
				: undefined;
	if (!one || one === sent || !URL.canParse(one)) return undefined;
	const u = new URL(one);
	const own = callbackUrl && URL.canParse(callbackUrl) ? new URL(callbackUrl) : undefined;
	if (own && u.origin !== own.origin && u.pathname === own.pathname) return undefined;
	return one;
}
