/**
 * The host check: which host names this server answers (DNS rebinding).
 *
 * A page on `http://attacker.example:5173` whose name is made to resolve to 127.0.0.1 talks to this
 * server as if it were its own origin: without ORIGIN, the server takes its origin from the Host
 * header, so the cross-site form rule sees "same origin", and the page's script could drive the
 * outbound steps and read loopback or private-network URLs through the server. So a request is
 * answered only under a name the server expects (as Vite's `server.allowedHosts` does):
 *
 * - without ORIGIN: `localhost`, any name under `.localhost`, and any IP literal (IPv4, bracketed
 *   IPv6), on any port: a browser sends those names only for pages served under them, and no DNS
 *   answer can move them;
 * - with ORIGIN: ORIGIN's host name (when it is a loopback name, its loopback twins too: `localhost`,
 *   `127.0.0.1`, `[::1]`, as the sandbox registers them), on any port;
 * - in both cases, the names in PLAYGROUND_SERVED_HOSTS (`*.example.com` wildcards allowed).
 *
 * The name checked is the one the browser used: the Host header, or, on a connection from a trusted
 * proxy (PLAYGROUND_TRUSTED_PROXIES), the header named by HOST_HEADER. On any other connection that
 * header is not believed: a page under a rebound name could send `X-Forwarded-Host: localhost`
 * itself. There the Host header is checked, and so is the request URL's host, which adapter-node
 * builds from that header whoever sent it (scripts/serve.js drops it from such a connection first;
 * adapter-node's own `node build` would not).
 *
 * On a connection from a trusted proxy, the connection's own Host must be served too, by the same
 * rule, besides the host the proxy forwards. A proxy on the same machine makes 127.0.0.1 trusted,
 * and the victim's own browser connects from there as well: a page under a rebound name
 * (`evil.example:5173`) can add `X-Forwarded-Host: localhost:5173`, but it cannot choose its Host.
 * A proxy sends either the browser's Host (the public name, which must be served anyway) or its
 * upstream address (an IP literal, served without ORIGIN, where HOST_HEADER names the browser's).
 * With ORIGIN, the proxy's Host must be ORIGIN's own name or one of PLAYGROUND_SERVED_HOSTS (not a
 * loopback twin): with ORIGIN no forwarded host can be read, so that Host is the only name the
 * browser could have used that the server sees, and an upstream address there would let a page
 * under a rebound name through the proxy's port. The 403 names the way out: let the proxy pass the
 * browser's Host, or add the name to PLAYGROUND_SERVED_HOSTS. What stays open: a proxy that puts
 * its upstream address in Host and forwards no host to read (no ORIGIN, no HOST_HEADER) hides the
 * browser's name, and then only the proxy can check it (docs/security.md). `/healthz` answers any
 * name, for health checks that call the server by its address. Everything the server derives from
 * the request's origin (the cross-site form rule, the sandbox's registered redirect URIs, the
 * redirect URI the setup offers) therefore only ever sees a served name.
 *
 * Pure: `servedHost` decides, `refuseUnservedHost` turns a refusal into a 403 for the server hook.
 */
import { escapeHtml, plainPage } from './plain-page';
import { isTrustedProxy, type Config } from '$lib/config.server.js';

/** `proxy`: the name refused is the Host of a trusted proxy's connection. */
export type HostVerdict = { ok: true } | { ok: false; host: string; setting: string; proxy?: true };

/** The settings the rule reads, from the configuration. */
export type HostRule = Pick<Config, 'origin' | 'servedHosts'> & {
	proxy: Pick<Config['proxy'], 'hostHeader' | 'trusted'>;
};

/** Paths answered under any host name. */
const ANY_HOST_PATHS = ['/healthz'];

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a Host header value (`name`, `name:port`, `[v6]:port`), normalised, or null. */
export function hostName(value: string | null | undefined): string | null {
	const raw = (value ?? '').trim();
	if (raw === '' || /[/?#@\\\s]/.test(raw)) return null;
	try {
		const url = new URL(`http://${raw}/`);
		return url.hostname.replace(/\.$/, '') || null;
	} catch {
		return null;
	}
}

/** An IP literal, as the URL parser writes it: dotted-decimal IPv4 or bracketed IPv6. */
function isIpLiteral(name: string): boolean {
	if (name.startsWith('[') && name.endsWith(']')) return true;
	return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(name);
}

/** `*.example.com` matches names below example.com (any depth), not example.com itself. */
function matches(name: string, pattern: string): boolean {
	if (!pattern.startsWith('*.')) return name === pattern;
	return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
}

/**
 * Whether a request under the host header value `value` is answered. `twins`: with ORIGIN, its
 * loopback twins too when ORIGIN's name is a loopback one (not for a trusted proxy's own Host).
 */
export function servedHost(
	value: string | null | undefined,
	rule: HostRule,
	twins = true
): HostVerdict {
	const name = hostName(value);
	const setting = rule.origin ? 'PLAYGROUND_SERVED_HOSTS' : 'ORIGIN or PLAYGROUND_SERVED_HOSTS';
	if (name === null) return { ok: false, host: String(value ?? ''), setting };
	if (rule.servedHosts.some((pattern) => matches(name, pattern))) return { ok: true };
	if (rule.origin) {
		const own = hostName(URL.canParse(rule.origin) ? new URL(rule.origin).host : null);
		const names = twins && own && LOOPBACK_NAMES.includes(own) ? LOOPBACK_NAMES : [own];
		return names.includes(name) ? { ok: true } : { ok: false, host: name, setting };
	}
	if (name === 'localhost' || name.endsWith('.localhost') || isIpLiteral(name)) return { ok: true };
	return { ok: false, host: name, setting };
}

/**
 * The host the browser used, as far as this connection can tell: from a trusted proxy (`peer`: the
 * connection's peer address), HOST_HEADER's header when set and present, else the URL's host
 * (adapter-node builds it from Host, or from ORIGIN when that is set); from anyone else, the Host
 * header, or the URL's host for a request without one (HTTP/1.0).
 */
export function requestHost(headers: Headers, url: URL, rule: HostRule, peer?: string): string {
	if (!isTrustedProxy(peer, rule.proxy.trusted)) return headers.get('host') ?? url.host;
	const header = rule.proxy.hostHeader?.trim().toLowerCase();
	return (header ? headers.get(header) : null) ?? url.host;
}

function explain(verdict: { host: string; proxy?: true }, rule: HostRule): string {
	const name = JSON.stringify(verdict.host);
	if (verdict.proxy)
		return (
			`This request came from a trusted proxy address (PLAYGROUND_TRUSTED_PROXIES) with the Host ` +
			`header ${name}, which this playground does not serve. The Host of a proxy's connection is ` +
			`checked too, besides the host it forwards: a browser on the proxy's machine connects from ` +
			`the same address (DNS rebinding). Let the proxy pass the browser's Host (nginx: ` +
			`proxy_set_header Host $http_host); if browsers do reach the playground under ${name}, add ` +
			`it to PLAYGROUND_SERVED_HOSTS.`
		);
	return rule.origin
		? `This playground is served at ${rule.origin} and does not answer under the host name ${name}. ` +
				`To serve it under that name too, add the name to PLAYGROUND_SERVED_HOSTS.`
		: `This playground answers only localhost and IP addresses unless told otherwise, and not the ` +
				`host name ${name} (a page under another name could use it through DNS rebinding). To serve ` +
				`it under that name, set ORIGIN to its public origin or add the name to PLAYGROUND_SERVED_HOSTS.`;
}

/**
 * Whether the request's host names are all served. From a trusted proxy: the connection's own Host
 * (by the same rule, but with ORIGIN not its loopback twins), then the host the proxy forwards.
 * From anyone else: the Host header, then the URL's host, in case adapter-node built it from a
 * forged header.
 */
function requestHostsServed(
	headers: Headers,
	url: URL,
	rule: HostRule,
	peer?: string
): HostVerdict {
	const own = headers.get('host') ?? url.host;
	if (isTrustedProxy(peer, rule.proxy.trusted)) {
		const connection = servedHost(own, rule, false);
		if (!connection.ok) return { ...connection, setting: 'PLAYGROUND_SERVED_HOSTS', proxy: true };
		return servedHost(requestHost(headers, url, rule, peer), rule);
	}
	return [own, url.host].map((h) => servedHost(h, rule)).find((v) => !v.ok) ?? { ok: true };
}

/**
 * For the server hook: a 403 when the request came under a host name this server does not answer
 * (an HTML page for browsers, JSON `{ error, message }` otherwise); undefined when it may go on.
 */
export function refuseUnservedHost(
	request: Request,
	url: URL,
	rule: HostRule,
	peer?: string
): Response | undefined {
	if (ANY_HOST_PATHS.includes(url.pathname)) return undefined;
	const verdict = requestHostsServed(request.headers, url, rule, peer);
	if (verdict.ok) return undefined;
	const message = explain(verdict, rule);
	if (request.headers.get('accept')?.includes('text/html'))
		return plainPage(
			403,
			'Host name not served',
			`<p>${escapeHtml(message)}</p><p>Setting: ${escapeHtml(verdict.setting)}</p>`
		);
	return new Response(JSON.stringify({ error: 'host_not_served', message }), {
		status: 403,
		headers: { 'content-type': 'application/json' }
	});
}
