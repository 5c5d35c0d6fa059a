/**
 * HAR import (`fromHar`): a HAR file from this playground or a browser's Network export, read into
 * Exchanges with no network request. Only OAuth entries are kept (entry.ts says which), and the
 * requests that come back from a consent request of the file to its redirect_uri. Any client secret
 * left in the file is redacted: the distinct secrets of the whole file are collected first (from
 * every entry, kept or left out, by their field names: `clientSecretsIn` of redact.ts), a file with
 * more than MAX_FILE_SECRETS of them is refused before any pattern is built, and every kept entry
 * (and every left-out address) is redacted with every one of them, by a redactor made for this
 * import alone. A file that can't be imported gives `{ ok: false }` with the reason and a message
 * that says what to do.
 *
 * The findings are not worked out here: `$lib/oauth/imported` runs the diagnostics on the result,
 * in transcript order, as the live flow does.
 */
import { MAX_SECRET_LENGTH, SECRET_FIELD, clientSecretsIn, createRedactor } from '../redact';
import { utf8Length } from '../text';
import type { Exchange } from '../types';
import { entryStep, toExchange } from './entry';
import { entrySchema, harSchema } from './schema';
import { HAR_CREATOR } from './format';

const DEFAULT_MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * The most different client secrets a file may hold. Each is searched for in every encoding in
 * every entry kept, so an import's work grows with the secrets times the bytes, and building the
 * search of a 1,024-character secret alone took about 25 ms: a 1.6 MB file of 1,000 token requests,
 * each with a secret of its own, held the page for 26 s. A flow has one client, so one secret; 16
 * leave room for a file of several clients' flows.
 */
export const MAX_FILE_SECRETS = 16;

/** Why a file was not imported. `unreadable` is the last resort: a reading error no check foresaw. */
export type ImportFailure =
	| 'not-text'
	| 'too-large'
	| 'not-json'
	| 'not-har'
	| 'version'
	| 'no-entries'
	| 'no-oauth-entries'
	| 'secret-too-long'
	| 'too-many-secrets'
	| 'unreadable';

/**
 * A request of the file that the import left out (the application's own page, its scripts, a
 * font…), as the imported banner lists it: its method and its address without the query, which is
 * where a token or a code would be, so nothing of it needs redacting; or, for an entry that could
 * not be read as a request, its place in the file alone.
 */
export interface LeftOut {
	/** The entry's place in the file, from 1. */
	n: number;
	method?: string;
	/** Origin and path, never the query. */
	address?: string;
	status?: number;
}

export type ImportResult =
	| { ok: true; exchanges: Exchange[]; leftOut: LeftOut[]; source: 'playground' | 'browser' }
	| { ok: false; reason: ImportFailure; message: string };

/** What the banner shows of a left-out entry (`LeftOut`). */
function leftOutOf(raw: unknown, n: number): LeftOut {
	const r = raw as {
		request?: { method?: unknown; url?: unknown };
		response?: { status?: unknown };
	};
	const method = typeof r?.request?.method === 'string' ? r.request.method.slice(0, 16) : undefined;
	const url = typeof r?.request?.url === 'string' ? r.request.url : '';
	const address = URL.canParse(url)
		? (({ origin, pathname }) => `${origin}${pathname}`.slice(0, 300))(new URL(url))
		: undefined;
	const status = typeof r?.response?.status === 'number' ? r.response.status : undefined;
	return {
		n,
		...(method && address ? { method, address } : {}),
		...(status !== undefined && address ? { status } : {})
	};
}

export interface ImportOptions {
	/** Largest file accepted, in bytes. Default 5 MiB. */
	maxBytes?: number;
	/**
	 * Told after each entry of the file is redacted (or found to be left out): how many of how
	 * many are done. The redaction is most of an import's time.
	 */
	onProgress?: (done: number, total: number) => void;
}

const MiB = 1024 * 1024;
function size(bytes: number, round: (n: number) => number): string {
	if (bytes >= MiB / 10) return `${round((bytes / MiB) * 10) / 10} MB`;
	if (bytes >= 1024) return `${round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

/** `origin + path` of a URL, or undefined when it does not parse. */
function target(url: string): string | undefined {
	return URL.canParse(url) ? new URL(url).origin + new URL(url).pathname : undefined;
}

/**
 * Which requests are the way back from a consent request of the file: a request to a consent's
 * `redirect_uri`, whatever its host (a customer's own application's, in a browser's export), whose
 * query carries `code`, `error` or `state`. Its path names no OAuth step, so without this it would
 * be left out with the application's scripts and pictures, and the error it carried with it.
 */
function redirectTargets(consents: { request: { url: string } }[]): (url: string) => boolean {
	const targets = new Set(
		consents.flatMap((c) => {
			const uri = URL.canParse(c.request.url)
				? new URL(c.request.url).searchParams.get('redirect_uri')
				: null;
			const t = uri === null ? undefined : target(uri);
			return t ? [t] : [];
		})
	);
	return (url) => {
		const t = target(url);
		if (!t || !targets.has(t)) return false;
		const q = new URL(url).searchParams;
		return q.has('code') || q.has('error') || q.has('state');
	};
}

/**
 * The refusal of a file of `bytes` bytes when that is over `maxBytes`, else undefined: the page's
 * import asks before it reads the file.
 */
export function sizeRefusal(
	bytes: number,
	maxBytes = DEFAULT_MAX_IMPORT_BYTES
): ImportResult | undefined {
	if (bytes <= maxBytes) return undefined;
	return {
		ok: false,
		reason: 'too-large',
		message: `The file is ${size(bytes, Math.ceil)}; the import takes at most ${size(maxBytes, Math.floor)}.`
	};
}

/** Reads a HAR file's text into Exchanges, findings not yet worked out. Never throws. */
export function fromHar(text: string, opts: ImportOptions = {}): ImportResult {
	try {
		return readHar(text, opts);
	} catch (err) {
		return {
			ok: false,
			reason: 'unreadable',
			message: `This file could not be read as a HAR: ${err instanceof Error ? err.message : String(err)}`
		};
	}
}

/**
 * `fromHar` without its last-resort catch: every file it can't import gives a result with its own
 * reason, and an exception here is a defect (the property tests call this, so that they see one).
 */
export function readHar(text: string, opts: ImportOptions = {}): ImportResult {
	if (typeof text !== 'string')
		return { ok: false, reason: 'not-text', message: 'There is no file text to import.' };
	const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
	// A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4), so a
	// text of up to a third of the limit in units is within it without encoding it (which took a
	// few milliseconds of the page's import of a 200 KB file).
	// Stryker disable next-line ConditionalExpression,EqualityOperator: "false" or "<" only forgo the shortcut; the size check after it decides
	const tooLarge = sizeRefusal(text.length * 3 <= maxBytes ? 0 : utf8Length(text), maxBytes);
	if (tooLarge) return tooLarge;
	let json: unknown;
	try {
		json = JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch (err) {
		return {
			ok: false,
			reason: 'not-json',
			message: `This file is not JSON: ${err instanceof Error ? err.message : String(err)}`
		};
	}
	const har = harSchema.safeParse(json);
	if (!har.success)
		return {
			ok: false,
			reason: 'not-har',
			message:
				'This file is JSON, but not a HAR: it has no log.entries list. Save it from the browser’s Network panel with “Save all as HAR”, or export it from the playground.'
		};
	const { version, creator, entries } = har.data.log;
	if (version !== undefined && version !== '1.2' && version !== '1.1')
		return {
			ok: false,
			reason: 'version',
			message: `This HAR is version ${JSON.stringify(version).slice(0, 40)}; the import reads HAR 1.2 (and 1.1).`
		};
	const source = creator?.name === HAR_CREATOR ? 'playground' : 'browser';

	/** Each entry, in file order: the Exchange it is, not yet redacted, or what the list shows of it. */
	const read: (Exchange | LeftOut)[] = [];
	const ids = new Set<string>();
	/** Each client secret of the file, and the first entry (from 1) that holds it. */
	const secrets = new Map<string, number>();
	const parsedEntries = entries.map((raw) => entrySchema.safeParse(raw));
	const returnsTo = redirectTargets(
		parsedEntries.flatMap((p) => (p.success && entryStep(p.data) === 'consent' ? [p.data] : []))
	);
	for (const [index, parsed] of parsedEntries.entries()) {
		const step = parsed.success
			? (entryStep(parsed.data) ?? (returnsTo(parsed.data.request.url) ? 'callback' : undefined))
			: undefined;
		if (!parsed.success || !step) {
			read.push(leftOutOf(entries[index], index + 1));
			// A left-out request is not shown, but a secret it sent may be echoed by one that is.
			if (parsed.success)
				for (const v of clientSecretsIn(toExchange(parsed.data, 'api', '')))
					if (!secrets.has(v)) secrets.set(v, index + 1);
			continue;
		}
		const e = parsed.data;
		let id = e._id || `har-${index + 1}`;
		if (ids.has(id)) id = `${id}-${index + 1}`;
		ids.add(id);
		const ex = toExchange(e, step, id);
		for (const v of clientSecretsIn(ex)) if (!secrets.has(v)) secrets.set(v, index + 1);
		read.push(ex);
	}
	// Refused before any pattern is built: what a file may cost is bounded here.
	for (const [v, n] of secrets)
		if (v.length > MAX_SECRET_LENGTH)
			return {
				ok: false,
				reason: 'secret-too-long',
				message: `Request ${n} of this HAR holds a client secret of ${v.length} characters. The playground redacts secrets of up to ${MAX_SECRET_LENGTH} characters, so it did not import the file rather than show one it could not hide.`
			};
	if (secrets.size > MAX_FILE_SECRETS)
		return {
			ok: false,
			reason: 'too-many-secrets',
			message: `This HAR holds ${secrets.size} different client secrets; the playground redacts at most ${MAX_FILE_SECRETS} per file, so it did not import the file rather than show one it could not hide. Record one client’s flow at a time.`
		};
	const redactor = createRedactor(
		[...secrets.keys()].map((value) => ({ name: SECRET_FIELD, value }))
	);
	const exchanges: Exchange[] = [];
	const leftOut: LeftOut[] = [];
	for (const [index, item] of read.entries()) {
		if ('request' in item) exchanges.push(redactor.exchange(item));
		else
			leftOut.push(
				item.address === undefined
					? item
					: { ...item, method: redactor.text(item.method!), address: redactor.text(item.address) }
			);
		opts.onProgress?.(index + 1, read.length);
	}
	if (exchanges.length === 0) {
		const n = entries.length;
		return n === 0
			? { ok: false, reason: 'no-entries', message: 'This HAR has no requests in it.' }
			: {
					ok: false,
					reason: 'no-oauth-entries',
					message: `This HAR has ${n} request${n === 1 ? '' : 's'}, none of them to /oauth2/ or /reader/api/0/. Record the flow with the Network panel open (tick “Preserve log”), then save again.`
				};
	}
	return { ok: true, exchanges, leftOut, source };
}
