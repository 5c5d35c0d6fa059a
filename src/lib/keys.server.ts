/**
 * The one key material the playground and its built-in sandbox share: the session keys, and keys
 * derived from the current one for other purposes (the sandbox signs its codes and tokens with one).
 * It sits outside `server/` and `sandbox/` so that both can use it without importing each other, and
 * it imports nothing of the project (the import rule in `.dependency-cruiser.js` checks that).
 * Server-only by its `.server.ts` name: SvelteKit refuses to bundle it for the browser.
 *
 * PLAYGROUND_SESSION_KEY holds one or more keys, comma-separated: the first seals, all of them open
 * (key rotation). A key is at least 32 bytes in standard base64 (`openssl rand -base64 32`) or
 * base64url; a shorter one, or any other text, is refused at start.
 * With no key set, one is generated once and kept in the ignored file `.session-key`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeSessionKey, MIN_SESSION_KEY_BYTES } from './config.server.js';

const KEY_FILE = '.session-key';

/**
 * A key's 32 bytes: the decoded key when it is 32 bytes, the SHA-256 of a longer one. A key that is
 * not base64 or base64url, or shorter than 32 bytes, is refused (parseConfig refuses it at start).
 */
export function parseKey(text: string): Uint8Array {
	const raw = decodeSessionKey(text);
	if (!raw || raw.length < MIN_SESSION_KEY_BYTES)
		throw new Error(
			`A session key must be at least ${MIN_SESSION_KEY_BYTES} bytes in base64 or base64url (${KEY_FILE} or PLAYGROUND_SESSION_KEY); generate one with \`openssl rand -base64 32\``
		);
	return new Uint8Array(raw.length === 32 ? raw : createHash('sha256').update(raw).digest());
}

function localKey(): string {
	const file = resolve(KEY_FILE);
	try {
		return readFileSync(file, 'utf8');
	} catch {
		const fresh = randomBytes(32).toString('base64url');
		try {
			writeFileSync(file, fresh + '\n', { flag: 'wx', mode: 0o600 });
			return fresh;
		} catch {
			// Another process wrote it first: use theirs.
			return readFileSync(file, 'utf8');
		}
	}
}

/**
 * All session keys, the current one first: the PLAYGROUND_SESSION_KEY keys (`configured`), else the
 * local key file's. Read once per app (src/lib/base.server.ts), never per request.
 */
export function sessionKeys(configured: string[] | undefined): Uint8Array[] {
	return configured ? configured.map(parseKey) : [parseKey(localKey())];
}

/**
 * A 32-byte key for one purpose, derived from the current session key: HMAC-SHA-256 of the purpose.
 * Each purpose gets its own key, and none of them reveals the session key.
 */
export function derivedKey(keys: readonly Uint8Array[], purpose: string): Uint8Array {
	return new Uint8Array(createHmac('sha256', keys[0]!).update(purpose).digest());
}
