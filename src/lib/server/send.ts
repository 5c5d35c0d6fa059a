/**
 * THE one place that makes outbound requests. Every request goes through the guard (guard.ts), with
 * the connect and total timeouts and the response size cap, and comes back as an Exchange: the
 * request exactly as written to the socket (headers in order, nothing added by Node behind our back),
 * the response as received (raw header names and order), the timing, or the failure.
 * Redirects are never followed: a 3xx is the result.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { randomUUID } from 'node:crypto';
import type { Exchange, Failure, FailureKind, HeaderList, Step, Timing } from '$lib/exchange/types';
import { checkUrl, guardedLookup, policyFromEnv, type GuardPolicy } from './guard';
import { limits } from './limits';

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
}

let policy: GuardPolicy | undefined;
export function guardPolicy(): GuardPolicy {
	policy ??= policyFromEnv(process.env);
	return policy;
}

const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, insecure: boolean): http.Agent {
	const key = `${protocol}${insecure ? ':insecure' : ''}`;
	let agent = agents.get(key);
	if (!agent) {
		const lookup = guardedLookup(guardPolicy());
		agent =
			protocol === 'https:'
				? new https.Agent({
						keepAlive: true,
						maxSockets: 64,
						lookup,
						rejectUnauthorized: !insecure
					})
				: new http.Agent({ keepAlive: true, maxSockets: 64, lookup });
		agents.set(key, agent);
	}
	return agent;
}

function hostHeader(u: URL): string {
	return u.host; // URL.host drops the default port, as a Host header should
}

function classify(err: NodeJS.ErrnoException): FailureKind {
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
		return 'tls';
	return 'network';
}

function describe(kind: FailureKind, err: Error, u: URL): string {
	switch (kind) {
		case 'refused':
			return `Nothing is listening at ${u.host}: the connection was refused.`;
		case 'dns':
			return `The host name ${u.hostname} could not be resolved (DNS).`;
		case 'reset':
			return `${u.host} closed the connection before answering.`;
		case 'tls':
			return `The TLS handshake with ${u.host} failed: ${tlsReason(err)}`;
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

function pairs(raw: string[]): HeaderList {
	const out: HeaderList = [];
	for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
	return out;
}

export async function send(input: SendInput): Promise<Exchange> {
	const startedAt = new Date().toISOString();
	const t0 = performance.now();
	const body = input.body ?? '';
	const bodyBytes = Buffer.from(body, 'utf8');
	const id = randomUUID();
	const lim = limits();

	let u: URL;
	try {
		u = new URL(input.url);
	} catch {
		return blockedExchange(input, id, startedAt, {
			kind: 'blocked',
			message: `"${input.url}" is not a valid URL.`
		});
	}
	const headers: HeaderList = [
		['Host', hostHeader(u)],
		['User-Agent', USER_AGENT],
		['Accept', input.accept ?? 'application/json'],
		...(input.headers ?? [])
	];
	if (
		body.length > 0 ||
		input.method === 'POST' ||
		input.method === 'PUT' ||
		input.method === 'PATCH'
	)
		headers.push(['Content-Length', String(bodyBytes.length)]);
	headers.push(['Connection', 'keep-alive']);
	const request = { method: input.method, url: u.toString(), httpVersion: '1.1', headers, body };

	const pol = guardPolicy();
	const own = ownSandbox(u);
	const urlCheck = own ? ({ ok: true } as const) : checkUrl(u, pol);
	if (!urlCheck.ok)
		return {
			id,
			step: input.step,
			startedAt,
			request,
			failure: { kind: 'blocked', message: urlCheck.reason },
			timing: { total: 0 },
			findings: [],
			note: input.note
		};
	const insecure = !!input.allowInvalidTls && pol.mode === 'local';

	return new Promise<Exchange>((resolve) => {
		const timing: Timing = { total: 0 };
		let done = false;
		let tConnectStart = t0;
		const finish = (ex: Partial<Exchange>) => {
			if (done) return;
			done = true;
			clearTimeout(totalTimer);
			clearTimeout(connectTimer);
			timing.total = round(performance.now() - t0);
			resolve({
				id,
				step: input.step,
				startedAt,
				request,
				timing,
				findings: [],
				note: input.note,
				...ex
			});
		};
		const fail = (failure: Failure, response?: Exchange['response']) => {
			req.destroy();
			finish({ failure, response });
		};

		const mod = u.protocol === 'https:' ? https : http;
		let req: http.ClientRequest;
		try {
			req = (own ? http : mod).request({
				protocol: own ? 'http:' : u.protocol,
				hostname: own ? own.hostname : u.hostname.replace(/^\[|\]$/g, ''),
				port: own ? own.port : u.port || undefined,
				method: input.method,
				path: u.pathname + u.search,
				headers: headers.flat(),
				agent: agentFor(own ? 'http:' : u.protocol, insecure),
				servername:
					u.protocol === 'https:' && !/^[\d.]+$|:/.test(u.hostname) ? u.hostname : undefined
			});
		} catch (err) {
			// Node refuses to write a header holding CR, LF or a character outside Latin-1 (a token from a
			// misbehaving service can hold one): nothing was sent.
			done = true;
			const e = err as NodeJS.ErrnoException;
			const what =
				e.code === 'ERR_INVALID_CHAR'
					? `a header holds a character that HTTP does not allow (${e.message.replace(/^Invalid character in header content /, 'in ')}). Values that came from the service, such as the access token, go into headers; check them`
					: e.message;
			resolve({
				id,
				step: input.step,
				startedAt,
				request,
				timing: { total: round(performance.now() - t0) },
				findings: [],
				note: input.note,
				failure: { kind: 'network', message: `The request was not sent: ${what}.` }
			});
			return;
		}

		const connectTimer = setTimeout(
			() =>
				fail({
					kind: 'timeout',
					message: `No connection to ${u.host} within ${lim.connectTimeoutMs} ms.`
				}),
			lim.connectTimeoutMs
		);
		let partial:
			| {
					status: number;
					statusText: string;
					httpVersion: string;
					headers: HeaderList;
					chunks: Buffer[];
					size: number;
			  }
			| undefined;
		const totalTimer = setTimeout(() => {
			const res = partial
				? {
						status: partial.status,
						statusText: partial.statusText,
						httpVersion: partial.httpVersion,
						headers: partial.headers,
						body: Buffer.concat(partial.chunks).toString('utf8'),
						truncated: true
					}
				: undefined;
			fail(
				{
					kind: 'timeout',
					message: partial
						? `${u.host} started answering but did not finish within ${lim.totalTimeoutMs} ms (a slow or stalled body).`
						: `${u.host} did not answer within ${lim.totalTimeoutMs} ms.`
				},
				res
			);
		}, lim.totalTimeoutMs);

		const onAbort = () => fail({ kind: 'cancelled', message: 'Cancelled.' });
		input.signal?.addEventListener('abort', onAbort, { once: true });

		req.on('socket', (socket: Socket) => {
			const connected = () => clearTimeout(connectTimer);
			if (!socket.connecting) {
				connected(); // a kept-alive socket: no DNS, connect or TLS this time
				return;
			}
			socket.once('lookup', () => {
				timing.dns = round(performance.now() - t0);
				tConnectStart = performance.now();
			});
			socket.once('connect', () => {
				timing.connect = round(performance.now() - tConnectStart);
				if (u.protocol === 'http:') connected();
				tConnectStart = performance.now();
			});
			(socket as TLSSocket).once('secureConnect', () => {
				timing.tls = round(performance.now() - tConnectStart);
				connected();
			});
		});

		req.on('error', (err: NodeJS.ErrnoException) => {
			const kind = classify(err);
			fail({ kind, message: describe(kind, err, u) });
		});

		req.on('response', (res) => {
			timing.firstByte = round(performance.now() - t0);
			partial = {
				status: res.statusCode ?? 0,
				statusText: res.statusMessage ?? '',
				httpVersion: res.httpVersion,
				headers: pairs(res.rawHeaders),
				chunks: [],
				size: 0
			};
			const p = partial;
			res.on('data', (chunk: Buffer) => {
				const room = lim.maxResponseBytes - p.size;
				if (chunk.length > room) {
					p.chunks.push(chunk.subarray(0, room));
					p.size += room;
					fail(
						{
							kind: 'too-large',
							message: `The response body is larger than the ${lim.maxResponseBytes}-byte cap; the first ${lim.maxResponseBytes} bytes are shown.`
						},
						{
							status: p.status,
							statusText: p.statusText,
							httpVersion: p.httpVersion,
							headers: p.headers,
							body: Buffer.concat(p.chunks).toString('utf8'),
							truncated: true
						}
					);
					return;
				}
				p.chunks.push(chunk);
				p.size += chunk.length;
			});
			res.on('end', () =>
				finish({
					response: {
						status: p.status,
						statusText: p.statusText,
						httpVersion: p.httpVersion,
						headers: p.headers,
						body: Buffer.concat(p.chunks).toString('utf8'),
						truncated: false
					}
				})
			);
			res.on('aborted', () =>
				fail(
					{ kind: 'reset', message: `${u.host} closed the connection in the middle of the body.` },
					{
						status: p.status,
						statusText: p.statusText,
						httpVersion: p.httpVersion,
						headers: p.headers,
						body: Buffer.concat(p.chunks).toString('utf8'),
						truncated: true
					}
				)
			);
			res.on('error', () => undefined);
		});

		req.end(bodyBytes.length ? bodyBytes : undefined);
	});
}

/**
 * The built-in sandbox answers under this server's own public origin (ORIGIN). In hosted mode that
 * origin is on no allow list and its address may be private, so a request to it goes straight to
 * this process's own listener instead, with the same request line and headers; nothing else can be
 * reached this way.
 */
function ownSandbox(u: URL): { hostname: string; port: number } | undefined {
	if (!u.pathname.startsWith('/sandbox/') || (process.env.SANDBOX ?? 'on').toLowerCase() === 'off')
		return undefined;
	const origin = process.env.ORIGIN;
	if (!origin || !URL.canParse(origin) || new URL(origin).origin !== u.origin) return undefined;
	const host = process.env.HOST;
	const hostname =
		!host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.replace(/^\[|\]$/g, '');
	return { hostname, port: Number(process.env.PORT || 5173) };
}

function blockedExchange(
	input: SendInput,
	id: string,
	startedAt: string,
	failure: Failure
): Exchange {
	return {
		id,
		step: input.step,
		startedAt,
		request: {
			method: input.method,
			url: input.url,
			httpVersion: '1.1',
			headers: input.headers ?? [],
			body: input.body ?? ''
		},
		failure,
		timing: { total: 0 },
		findings: [],
		note: input.note
	};
}

function round(ms: number): number {
	return Math.round(ms * 100) / 100;
}
