/**
 * A loopback HTTP service that answers from a script, for tests that hand the flow's steps the
 * app's real sender (server/outbound/send.ts) and check what reached the wire. Each request is recorded
 * exactly as it arrived (method, path and query, raw headers in order, body) and answered with the
 * next scripted answer, in the order they were queued. A request that finds none queued is answered
 * `500 No Scripted Answer` and listed in `unscripted`, so that the test that sent it can fail saying
 * which request it was, instead of reading a made-up answer.
 *
 * One per test file: start it in beforeAll, `reset()` it before each test, `close()` it in afterAll.
 */
import { createServer, STATUS_CODES } from 'node:http';
import { listen } from './listen';
import { readRequest, type SeenRequest } from './recording-server';

export type { SeenRequest } from './recording-server';

/** Header names and values, in order (the shape of the Exchange's header lists). */
type HeaderList = [string, string][];

export interface ScriptedAnswer {
	/** 200 unless given. */
	status?: number;
	/** The reason phrase; the status code's usual one (Node's STATUS_CODES) unless given. */
	statusText?: string;
	/** Written in this order, with these spellings; Node adds Date, Connection and the length. */
	headers?: HeaderList;
	body?: string;
	/**
	 * Breaks the connection instead of answering in full: `before-answer` closes it once the request
	 * has been read, before a byte of the answer; `mid-body` sends the status line, the headers (with
	 * the whole body's Content-Length) and the first half of the body, then closes it.
	 */
	cut?: 'before-answer' | 'mid-body';
}

export interface ScriptedService {
	/** `http://127.0.0.1:<port>`. */
	url: string;
	/** The requests received since the last reset, in the order they arrived. */
	received: SeenRequest[];
	/** The requests that found no answer queued, as `METHOD target`. */
	unscripted: string[];
	/** Queues answers, to be given in this order. */
	answer: (...answers: ScriptedAnswer[]) => void;
	/** How many queued answers no request has taken yet. */
	queued: () => number;
	/** Forgets the requests received and the answers still queued. */
	reset: () => void;
	close: () => Promise<void>;
}

export async function startScriptedService(): Promise<ScriptedService> {
	const received: SeenRequest[] = [];
	const unscripted: string[] = [];
	const queue: ScriptedAnswer[] = [];
	const server = createServer((req, res) => {
		void readRequest(req).then((seen) => {
			received.push(seen);
			const a = queue.shift();
			if (!a) {
				unscripted.push(`${seen.method} ${seen.url}`);
				res
					.writeHead(500, 'No Scripted Answer', { 'Content-Type': 'text/plain' })
					.end(`No answer was scripted for ${seen.method} ${seen.url}.`);
				return;
			}
			if (a.cut === 'before-answer') {
				req.socket.destroy();
				return;
			}
			const body = Buffer.from(a.body ?? '', 'utf8');
			const headers = (a.headers ?? []).flat();
			const status = a.status ?? 200;
			const statusText = a.statusText ?? STATUS_CODES[status] ?? '';
			if (a.cut === 'mid-body') {
				res.writeHead(status, statusText, [...headers, 'Content-Length', String(body.length)]);
				res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
				return;
			}
			res.writeHead(status, statusText, headers).end(body);
		});
	});
	const { url } = await listen(server);
	return {
		url,
		received,
		unscripted,
		answer: (...answers) => queue.push(...answers),
		queued: () => queue.length,
		reset: () => {
			received.length = 0;
			unscripted.length = 0;
			queue.length = 0;
		},
		close: () =>
			new Promise<void>((ok) => {
				server.close(() => ok());
				// The sender keeps its connections alive; close() alone would wait for them to idle out.
				server.closeAllConnections();
			})
	};
}

/** The URL a request was for, from its Host header and its target, as the sender wrote them. */
export const urlOf = (seen: SeenRequest): string => `http://${seen.headers.host}${seen.url}`;

/** A request's headers as they arrived: names and values, in order. */
export function headersOf(seen: SeenRequest): HeaderList {
	const out: HeaderList = [];
	for (let i = 0; i + 1 < seen.rawHeaders.length; i += 2)
		out.push([seen.rawHeaders[i]!, seen.rawHeaders[i + 1]!]);
	return out;
}

/** The headers the sender writes itself on every request (send.ts `prepare`). */
const SENDERS_OWN = new Set(['host', 'user-agent', 'accept', 'content-length', 'connection']);

/**
 * The headers a step asked the sender for (Authorization, Content-Type…), in order: what arrived,
 * less the ones the sender writes itself on every request.
 */
export const stepHeadersOf = (seen: SeenRequest): HeaderList =>
	headersOf(seen).filter(([name]) => !SENDERS_OWN.has(name.toLowerCase()));
