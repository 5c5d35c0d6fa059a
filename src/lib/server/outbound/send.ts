/**
 * THE one place that makes outbound requests. Every request goes through the guard (guard.ts), with
 * the connect and total timeouts and the response size cap, and comes back as an Exchange: the
 * request exactly as written to the socket (headers in order, nothing added by Node behind our back),
 * the response as received (raw header names and order), the timing, or the failure.
 * Redirects are never followed: a 3xx is the result.
 */
import type { Clock } from '$lib/base.server';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { randomUUID } from 'node:crypto';
import type { Exchange, Failure, FailureKind, HeaderList, Step, Timing } from '$lib/exchange/types';
import { checkUrl, guardedLookup, type GuardPolicy } from './guard';
import { clientKey } from '$lib/fixed-window.server';
import { HostSlots, type Slot } from './host-slots';
import { specOf } from '$lib/steps/registry';
import type { Config, Limits } from '$lib/config.server.js';

export const USER_AGENT =
	'feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)';

export interface SendInput {
	step: Step;
	method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
	url: string;
	/** Extra headers (Content-Type, Authorization…). Host, User-Agent, Accept, Content-Length and Connection are set here. */
	headers?: HeaderList;
	body?: string;
	note?: string;
	signal?: AbortSignal;
	/** The Accept header; JSON unless said otherwise. */
	accept?: string;
	/** Local mode only: accept a self-signed or expired certificate. */
	allowInvalidTls?: boolean;
	/**
	 * The address of the visitor the request is for, by which the pool shares a host's connections
	 * (see HostSlots). Unknown: counted as one address.
	 */
	client?: string;
}

/** Where and how the sender may connect: the outbound policy and limits, from the configuration. */
export interface Outbound {
	policy: GuardPolicy;
	limits: Pick<Limits, 'connectTimeoutMs' | 'totalTimeoutMs' | 'maxResponseBytes'>;
	/** This server's own listener, when its sandbox is on and ORIGIN is set (see ownSandbox). */
	self?: OwnListener;
}

interface OwnListener {
	/** ORIGIN's origin: a request to `${origin}/sandbox/…` goes to this listener. */
	origin: string;
	hostname: string;
	port: number;
}

/** The sender's settings from the server's configuration. */
export function outboundFrom(config: Config): Outbound {
	const { origin, host, port, sandbox } = config;
	const self =
		sandbox.enabled && origin && URL.canParse(origin)
			? {
					origin: new URL(origin).origin,
					hostname:
						host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.replace(/^\[|\]$/g, ''),
					port
				}
			: undefined;
	return { policy: config.policy, limits: config.limits, self };
}

/** Connections per target host, for all visitors together (see HostSlots for how they are shared). */
const POOL_SOCKETS = 64;
/**
 * An idle pooled socket is closed after this long. Node 20's agent reads a server's
 * `Keep-Alive: timeout=N` hint only to shorten its own timeout (to N − 1 s), and keeps an idle
 * socket forever when it has none: a request then goes on a socket the server is just closing.
 */
export const IDLE_TIMEOUT_MS = 4000;

/** A keep-alive agent and its per-host slots (its DNS lookup checks every address against the policy). */
interface Pool {
	agent: http.Agent;
	hosts: Map<string, HostSlots>;
}

/** A sender's pools, one per protocol (and per certificate check), made on first use. */
type Pools = Map<string, Pool>;

function poolFor(pools: Pools, policy: GuardPolicy, protocol: string, insecure: boolean): Pool {
	const key = `${protocol}${insecure ? ':insecure' : ''}`;
	let pool = pools.get(key);
	if (!pool) {
		const lookup = guardedLookup(policy);
		const common = { keepAlive: true, maxSockets: POOL_SOCKETS, timeout: IDLE_TIMEOUT_MS, lookup };
		const agent =
			protocol === 'https:'
				? new https.Agent({ ...common, rejectUnauthorized: !insecure })
				: new http.Agent(common);
		pools.set(key, (pool = { agent, hosts: new Map() }));
	}
	return pool;
}

function slotsFor(pool: Pool, host: string): HostSlots {
	let slots = pool.hosts.get(host);
	if (!slots) {
		const made = new HostSlots(POOL_SOCKETS, () => {
			if (pool.hosts.get(host) === made) pool.hosts.delete(host);
		});
		pool.hosts.set(host, (slots = made));
	}
	return slots;
}

/**
 * A request that spends something (the code exchange spends the code, a refresh may rotate the
 * refresh token) goes on a connection of its own, never on a kept-alive one the server may be
 * closing: it costs a handshake, and it is never sent twice. Its step's spec says so.
 */
function needsFreshConnection(input: Pick<SendInput, 'step'>): boolean {
	return specOf(input.step).freshConnection === true;
}

/**
 * OpenSSL's words for a handshake answered by something that is not TLS: a plain-HTTP server's
 * "HTTP/1.1 400" read as a TLS record.
 */
const NOT_TLS =
	/wrong version number|packet length too long|record layer failure|unknown protocol/i;

export function classify(err: NodeJS.ErrnoException): FailureKind {
	const code = err.code ?? '';
	if (code === 'EGUARD') return 'blocked';
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME')
		return 'dns';
	if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
	if (
		code.startsWith('ERR_TLS') ||
		code.startsWith('ERR_SSL') ||
		code.startsWith('CERT_') ||
		code.includes('SELF_SIGNED') ||
		code.startsWith('UNABLE_TO_') ||
		code === 'HOSTNAME_MISMATCH' ||
		code === 'EPROTO'
	)
		return NOT_TLS.test(err.message) ? 'plain-http' : 'tls';
	return 'network';
}

export function describe(kind: FailureKind, err: Error, u: URL): string {
	switch (kind) {
		case 'refused':
			return `Nothing is listening at ${u.host}: the connection was refused.`;
		case 'dns':
			return `The host name ${u.hostname} could not be resolved (DNS).`;
		case 'reset':
			return `${u.host} closed the connection before answering.`;
		case 'tls':
			return `The TLS handshake with ${u.host} failed: ${tlsReason(err)}`;
		case 'plain-http':
			return `${u.host} answered the TLS handshake with something that is not TLS: this port speaks plain HTTP, so https:// cannot work on it.`;
		case 'blocked':
			return err.message;
		default:
			return `The request to ${u.host} failed: ${err.message}`;
	}
}

/** A certificate error in plain words, with OpenSSL's own code for searching. */
function tlsReason(err: NodeJS.ErrnoException): string {
	const code = err.code ?? '';
	const plain: Record<string, string> = {
		DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed, so no authority vouches for it',
		SELF_SIGNED_CERT_IN_CHAIN:
			'the certificate chain ends in a self-signed certificate that is not trusted',
		CERT_HAS_EXPIRED: 'the certificate has expired',
		CERT_NOT_YET_VALID: 'the certificate is not valid yet (check the clocks)',
		ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is for another host name',
		UNABLE_TO_VERIFY_LEAF_SIGNATURE:
			'the certificate was issued by an authority that is not trusted (or the server does not send its intermediate certificates)',
		UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
			'the certificate was issued by an authority that is not trusted (or the server does not send its intermediate certificates)'
	};
	const words = plain[code];
	return words ? `${words} (${code}).` : err.message;
}

export function pairs(raw: string[]): HeaderList {
	const out: HeaderList = [];
	for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
	return out;
}

/** Response as it arrives: status line and headers, and the body so far. */
interface Arriving {
	status: number;
	statusText: string;
	httpVersion: string;
	headers: HeaderList;
	chunks: Buffer[];
	size: number;
}

/** What happened on the wire: a response, a failure, or a failure with the response so far. */
type Outcome = Pick<Exchange, 'response' | 'failure'>;

/** The request about to be written: the parsed URL, the record of it, and the body's bytes. */
interface Prepared {
	url: URL;
	request: Exchange['request'];
	bodyBytes: Buffer;
}

/** Where the request goes: the URL's own host (checked by the guard), or this server's listener. */
interface Route {
	own?: { hostname: string; port: number };
	insecure: boolean;
}

/** The one sender of an app: its outbound policy and limits, and the connection pools kept for them. */
export interface Sender {
	readonly outbound: Outbound;
	/**
	 * The app's clock (base.server.ts): the time the steps keep with what a request brought (a
	 * token's `obtained_at`) and compare it with (its expiry). Unit tests move it by hand.
	 */
	readonly clock: Clock;
	/**
	 * Sends one request and records it as an Exchange, in four steps: prepare it and check it
	 * against the guard, write it, read the answer, record what happened. Never throws. Never sends
	 * twice.
	 */
	send(input: SendInput): Promise<Exchange>;
	/**
	 * Like send, and a GET whose kept-alive connection the server had closed before any byte of the
	 * answer came is sent once more, on a fresh connection: both attempts are returned, the first
	 * with its failure. Nothing else is sent twice: a POST may have been acted on before the
	 * connection closed.
	 */
	sendAll(input: SendInput): Promise<Exchange[]>;
}

/**
 * A sender with pools of its own: the composition root builds one per app, so two apps with two
 * policies never share a connection (a pool's DNS lookup checks addresses against its policy).
 */
export function createSender(outbound: Outbound, clock: Clock = Date.now): Sender {
	const pools: Pools = new Map();
	return {
		outbound,
		clock,
		send: async (input) =>
			(await attempt(input, outbound, pools, needsFreshConnection(input))).exchange,
		sendAll: (input) => sendAll(input, outbound, pools)
	};
}

async function sendAll(input: SendInput, outbound: Outbound, pools: Pools): Promise<Exchange[]> {
	const first = await attempt(input, outbound, pools, needsFreshConnection(input));
	if (input.method !== 'GET' || !first.stale) return [first.exchange];
	const again = await attempt(input, outbound, pools, true);
	const failed = first.exchange;
	return [
		{
			...failed,
			failure: {
				kind: failed.failure!.kind,
				message: `${failed.failure!.message} It was a kept-alive connection that the server had closed, so nothing was lost: the playground sent the request again on a fresh connection (the next exchange).`
			}
		},
		again.exchange
	];
}

/** One attempt; `stale` when it went on a kept-alive socket that closed before any byte of an answer. */
async function attempt(
	input: SendInput,
	outbound: Outbound,
	pools: Pools,
	fresh: boolean
): Promise<{ exchange: Exchange; stale: boolean }> {
	const startedAt = new Date().toISOString();
	const t0 = performance.now();
	const id = randomUUID();
	const record = (
		request: Exchange['request'],
		timing: Timing,
		outcome: Outcome,
		stale = false
	) => ({
		exchange: {
			id,
			step: input.step,
			startedAt,
			request,
			timing,
			findings: [],
			note: input.note,
			...outcome
		},
		stale
	});

	const prepared = prepare(input);
	if ('failure' in prepared) return record(prepared.request, { total: 0 }, prepared);
	const route = resolveAndGuard(prepared.url, input, outbound);
	if ('failure' in route) return record(prepared.request, { total: 0 }, route);
	const protocol = route.own ? 'http:' : prepared.url.protocol;
	const pool = fresh ? undefined : poolFor(pools, outbound.policy, protocol, route.insecure);
	const lim = outbound.limits;
	let slot: Slot | undefined;
	if (pool) {
		const host = route.own ? `${route.own.hostname}:${route.own.port}` : prepared.url.host;
		slot = await waitForSlot(slotsFor(pool, host), input, lim.totalTimeoutMs);
		if (!slot) {
			const queued = round(performance.now() - t0);
			const failure: Failure = input.signal?.aborted
				? { kind: 'cancelled', message: 'Cancelled.' }
				: {
						kind: 'busy',
						message: `None of the playground's connections to ${prepared.url.host} became free within ${lim.totalTimeoutMs} ms (other visitors' requests held them); nothing was sent.`
					};
			return record(prepared.request, { queued, total: queued }, { failure });
		}
	}
	try {
		// Ended for a newcomer between its turn and now: nothing was sent.
		if (slot?.ended.aborted) {
			const total = round(performance.now() - t0);
			return record(prepared.request, { total }, { failure: ended(total, prepared.url) });
		}
		const written = write(input, prepared, route, outbound.policy, pool?.agent);
		if ('failure' in written)
			return record(prepared.request, { total: round(performance.now() - t0) }, written);
		const timing: Timing = { total: 0 };
		// The agent holds it back until one of its sockets is free (rare: the slots keep to its size).
		const queuedInAgent =
			!!pool && Object.values(pool.agent.requests).some((list) => list?.includes(written.req));
		// The request's `close` comes after the agent has let go of its socket (its own listener on
		// the socket runs first).
		const closed = new Promise<void>((ok) => written.req.once('close', () => ok()));
		const read_ = await read(written.req, prepared, lim, timing, t0, {
			signal: input.signal,
			waited: !!slot?.waited || queuedInAgent,
			ended: slot?.ended
		});
		// Ended for a newcomer: its connection is the newcomer's once the socket has closed (the
		// agent counts a socket until then, and would hold the newcomer's request back).
		if (read_.outcome.failure?.kind === 'ended') await closed;
		return record(prepared.request, timing, read_.outcome, read_.stale);
	} finally {
		slot?.release();
	}
}

/** Why a call was ended to give its connection to a newcomer (HostSlots), after `ms`. */
function ended(ms: number, url: URL): Failure {
	const s = ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
	return {
		kind: 'ended',
		message: `Ended after ${s} s: all ${POOL_SOCKETS} of the playground's connections to ${url.host} were in use and another visitor needed one; a GET changes nothing, send it again.`
	};
}

/** One of the host's slots for the visitor's address, within the total timeout or until cancelled. */
async function waitForSlot(
	slots: HostSlots,
	input: Pick<SendInput, 'client' | 'signal' | 'method'>,
	totalTimeoutMs: number
): Promise<Slot | undefined> {
	const stop = new AbortController();
	const timer = setTimeout(() => stop.abort(), totalTimeoutMs);
	const onCancel = () => stop.abort();
	input.signal?.addEventListener('abort', onCancel, { once: true });
	if (input.signal?.aborted) stop.abort();
	try {
		return await slots.take(clientKey(input.client ?? ''), input.method === 'GET', stop.signal);
	} finally {
		clearTimeout(timer);
		input.signal?.removeEventListener('abort', onCancel);
	}
}

/**
 * The request exactly as it will be written: Host, User-Agent, Accept, the caller's headers,
 * Content-Length (with a body, and always for POST, PUT and PATCH) and Connection, in that order.
 */
const TRANSPORT_HEADERS = new Set([
	'host',
	'content-length',
	'transfer-encoding',
	'connection',
	'keep-alive',
	'te',
	'upgrade',
	'expect'
]);

export function prepare(
	input: SendInput
): Prepared | { request: Exchange['request']; failure: Failure } {
	const body = input.body ?? '';
	let url: URL;
	try {
		url = new URL(input.url);
	} catch {
		return {
			request: {
				method: input.method,
				url: input.url,
				httpVersion: '1.1',
				headers: input.headers ?? [],
				body
			},
			failure: { kind: 'blocked', message: `"${input.url}" is not a valid URL.` }
		};
	}
	const bodyBytes = Buffer.from(body, 'utf8');
	const caller = input.headers ?? [];
	// The connection's own headers are the sender's: no caller writes them (defense in depth; the
	// API console refuses them first, with its own message).
	const owned = caller.find(([n]) => TRANSPORT_HEADERS.has(n.trim().toLowerCase()));
	if (owned)
		return {
			request: {
				method: input.method,
				url: url.toString(),
				httpVersion: '1.1',
				headers: caller,
				body
			},
			failure: {
				kind: 'blocked',
				message: `The ${owned[0]} header is the sender's own; it was not sent.`
			}
		};
	const has = (name: string) => caller.some(([n]) => n.toLowerCase() === name);
	const headers: HeaderList = [
		['Host', url.host], // URL.host drops the default port, as a Host header should
		// A caller's own User-Agent or Accept replaces the default instead of adding a second.
		...(has('user-agent') ? [] : ([['User-Agent', USER_AGENT]] as HeaderList)),
		...(has('accept') ? [] : ([['Accept', input.accept ?? 'application/json']] as HeaderList)),
		...caller
	];
	if (
		body.length > 0 ||
		input.method === 'POST' ||
		input.method === 'PUT' ||
		input.method === 'PATCH'
	)
		headers.push(['Content-Length', String(bodyBytes.length)]);
	headers.push(['Connection', 'keep-alive']);
	return {
		url,
		request: { method: input.method, url: url.toString(), httpVersion: '1.1', headers, body },
		bodyBytes
	};
}

/** This server's own sandbox, or a URL the guard lets through; invalid TLS only in local mode. */
export function resolveAndGuard(
	url: URL,
	input: Pick<SendInput, 'allowInvalidTls'>,
	outbound: Pick<Outbound, 'policy' | 'self'>
): Route | { failure: Failure } {
	const own = ownSandbox(url, outbound.self);
	if (!own) {
		const check = checkUrl(url, outbound.policy);
		if (!check.ok) return { failure: { kind: 'blocked', message: check.reason } };
	}
	return { own, insecure: !!input.allowInvalidTls && outbound.policy.mode === 'local' };
}

/**
 * The built-in sandbox answers under this server's own public origin (ORIGIN). In hosted mode that
 * origin is on no allow list and its address may be private, so a request to it goes straight to
 * this process's own listener instead, with the same request line and headers; nothing else can be
 * reached this way.
 */
export function ownSandbox(
	url: URL,
	self: OwnListener | undefined
): { hostname: string; port: number } | undefined {
	// The sandbox's pages, and RFC 8414's well-known URL for its issuer (`ORIGIN/sandbox`), which
	// sits outside `/sandbox/`: "Fill from metadata" then hears the sandbox's own answer (none).
	const sandboxPath =
		url.pathname.startsWith('/sandbox/') ||
		url.pathname === '/.well-known/oauth-authorization-server/sandbox';
	if (!self || !sandboxPath || self.origin !== url.origin) return undefined;
	return { hostname: self.hostname, port: self.port };
}

/** Opens the request. Node refuses a header it cannot write: then nothing was sent. */
function write(
	input: SendInput,
	{ url, request }: Prepared,
	{ own, insecure }: Route,
	policy: GuardPolicy,
	agent: http.Agent | undefined
): { req: http.ClientRequest } | { failure: Failure } {
	const protocol = own ? 'http:' : url.protocol;
	try {
		const req = (protocol === 'https:' ? https : http).request({
			protocol,
			hostname: own ? own.hostname : url.hostname.replace(/^\[|\]$/g, ''),
			port: own ? own.port : url.port || undefined,
			method: input.method,
			path: url.pathname + url.search,
			headers: request.headers.flat(),
			// No agent: a connection of its own, closed after the answer, with the same guarded lookup.
			...(agent
				? { agent }
				: { agent: false, lookup: guardedLookup(policy), rejectUnauthorized: !insecure }),
			servername:
				url.protocol === 'https:' && !/^[\d.]+$|:/.test(url.hostname) ? url.hostname : undefined
		});
		return { req };
	} catch (err) {
		// Node refuses to write a header holding CR, LF or a character outside Latin-1 (a token from a
		// misbehaving service can hold one).
		return { failure: notSent(err as NodeJS.ErrnoException) };
	}
}

export function notSent(e: NodeJS.ErrnoException): Failure {
	const what =
		e.code === 'ERR_INVALID_CHAR'
			? `a header holds a character that HTTP does not allow (${e.message.replace(/^Invalid character in header content /, 'in ')}). Values that came from the service, such as the access token, go into headers; check them`
			: e.message;
	return { kind: 'network', message: `The request was not sent: ${what}.` };
}

/**
 * Writes the body and reads the answer, within the connect and total timeouts and the size cap,
 * filling in `timing` (queued, DNS, connect, TLS, first byte, total) as the socket goes; `waited`:
 * it waited for its turn at the host or for one of the agent's sockets, and `timing.queued` then
 * says how long, until it had a socket. The connect
 * timeout runs from when the request has a socket: time spent waiting for one of the playground's
 * own connections is the playground's, not the service's. `signal`: the visitor cancelled;
 * `ended`: the pool gave its connection to a newcomer. `stale`: it went on a kept-alive socket
 * that closed before any byte of an answer.
 */
function read(
	req: http.ClientRequest,
	{ url, bodyBytes }: Prepared,
	lim: Outbound['limits'],
	timing: Timing,
	t0: number,
	{ signal, waited, ended: end }: { signal?: AbortSignal; waited: boolean; ended?: AbortSignal }
): Promise<{ outcome: Outcome; stale: boolean }> {
	return new Promise((resolve) => {
		let done = false;
		let partial: Arriving | undefined;
		let hasSocket = false;
		let reused = false;
		let answered = false;
		let readBefore = 0;
		let connectTimer: ReturnType<typeof setTimeout> | undefined;
		// Takes back the listeners on the visitor's and the pool's signals once the request is over:
		// the visitor's outlives it (a retry, the refresh before a call send on the same one).
		const listening = new AbortController();
		const finish = (outcome: Outcome, stale = false) => {
			if (done) return;
			done = true;
			listening.abort();
			clearTimeout(totalTimer);
			clearTimeout(connectTimer);
			timing.total = round(performance.now() - t0);
			resolve({ outcome, stale });
		};
		const fail = (failure: Failure, response?: Exchange['response'], stale = false) => {
			req.destroy();
			finish({ failure, response }, stale);
		};

		const totalTimer = setTimeout(
			() =>
				fail(
					!hasSocket
						? {
								kind: 'busy',
								message: `None of the playground's connections to ${url.host} became free within ${lim.totalTimeoutMs} ms (other visitors' requests held them); nothing was sent.`
							}
						: {
								kind: 'timeout',
								message: partial
									? `${url.host} started answering but did not finish within ${lim.totalTimeoutMs} ms (a slow or stalled body).`
									: `${url.host} did not answer within ${lim.totalTimeoutMs} ms.`
							},
					partial ? received(partial, true) : undefined
				),
			Math.max(0, lim.totalTimeoutMs - (performance.now() - t0))
		);
		signal?.addEventListener('abort', () => fail({ kind: 'cancelled', message: 'Cancelled.' }), {
			once: true,
			signal: listening.signal
		});
		end?.addEventListener(
			'abort',
			() => fail(ended(performance.now() - t0, url), partial ? received(partial, true) : undefined),
			{ once: true, signal: listening.signal }
		);

		req.on('socket', (socket: Socket) => {
			hasSocket = true;
			if (waited) timing.queued = round(performance.now() - t0);
			reused = !socket.connecting;
			readBefore = socket.bytesRead;
			if (socket.connecting)
				connectTimer = setTimeout(
					() =>
						fail({
							kind: 'timeout',
							message: `No connection to ${url.host} within ${lim.connectTimeoutMs} ms.`
						}),
					lim.connectTimeoutMs
				);
			timeConnection(socket, url, timing, performance.now(), () => clearTimeout(connectTimer));
		});
		req.on('error', (err: NodeJS.ErrnoException) => {
			const kind = classify(err);
			const silent = !answered && (req.socket?.bytesRead ?? 0) === readBefore;
			fail(
				{
					kind,
					message: describe(kind, err, url),
					// OpenSSL's text, kept once, for a search: the message says what it means.
					...(kind === 'plain-http' ? { detail: err.message.trim() } : {}),
					...(kind === 'reset' && silent && !reused ? { silent: true as const } : {})
				},
				undefined,
				reused && silent && kind === 'reset'
			);
		});
		req.on('response', (res) => {
			answered = true;
			timing.firstByte = round(performance.now() - t0);
			partial = collect(res, url, lim.maxResponseBytes, finish, fail);
		});

		req.end(bodyBytes.length ? bodyBytes : undefined);
	});
}

/**
 * Notes the DNS, connect and TLS times of a new socket, and calls `connected` once it is ready to
 * carry the request (at once for a kept-alive socket: no DNS, connect or TLS this time).
 */
function timeConnection(
	socket: Socket,
	url: URL,
	timing: Timing,
	t0: number,
	connected: () => void
): void {
	if (!socket.connecting) {
		connected();
		return;
	}
	let tConnectStart = t0;
	socket.once('lookup', () => {
		timing.dns = round(performance.now() - t0);
		tConnectStart = performance.now();
	});
	socket.once('connect', () => {
		timing.connect = round(performance.now() - tConnectStart);
		if (url.protocol === 'http:') connected();
		tConnectStart = performance.now();
	});
	(socket as TLSSocket).once('secureConnect', () => {
		timing.tls = round(performance.now() - tConnectStart);
		connected();
	});
}

/**
 * Reads a response's body up to the size cap; past the cap, or when the connection breaks off, it
 * fails with what arrived. Returns the response so far, which grows as chunks arrive.
 */
function collect(
	res: http.IncomingMessage,
	url: URL,
	maxBytes: number,
	finish: (outcome: Outcome) => void,
	fail: (failure: Failure, response: Exchange['response']) => void
): Arriving {
	const p: Arriving = {
		status: res.statusCode ?? 0,
		statusText: res.statusMessage ?? '',
		httpVersion: res.httpVersion,
		headers: pairs(res.rawHeaders),
		chunks: [],
		size: 0
	};
	res.on('data', (chunk: Buffer) => {
		const room = maxBytes - p.size;
		if (chunk.length > room) {
			p.chunks.push(chunk.subarray(0, room));
			p.size += room;
			fail(
				{
					kind: 'too-large',
					message: `The response body is larger than the ${maxBytes}-byte cap; the first ${maxBytes} bytes are shown.`
				},
				received(p, true)
			);
			return;
		}
		p.chunks.push(chunk);
		p.size += chunk.length;
	});
	res.on('end', () => finish({ response: received(p, false) }));
	res.on('aborted', () =>
		fail(
			{ kind: 'reset', message: `${url.host} closed the connection in the middle of the body.` },
			received(p, true)
		)
	);
	res.on('error', () => undefined);
	return p;
}

/** The response as recorded: what arrived, the body decoded as UTF-8. */
function received(p: Arriving, truncated: boolean): NonNullable<Exchange['response']> {
	return {
		status: p.status,
		statusText: p.statusText,
		httpVersion: p.httpVersion,
		headers: p.headers,
		body: Buffer.concat(p.chunks).toString('utf8'),
		truncated
	};
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}
