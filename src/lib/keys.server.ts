/**
 * The one key material the playground and its built-in sandbox share: the session keys, and keys
 * derived from the current one for other purposes (the sandbox signs its codes and tokens with one).
 * It sits outside `server/` and `sandbox/` so that both can use it without importing each other, and
 * it imports nothing of the project (the import rule in `.dependency-cruiser.js` checks that).
 * Server-only by its `.server.ts` name: SvelteKit refuses to bundle it for the browser.
 *
 * PLAYGROUND_SESSION_KEY holds one or more keys, comma-separated: the first seals, all of them open
 * (key rotation). A key is 32 bytes in base64url, or any other string, which is hashed to 32 bytes.
 * With no key set, one is generated once and kept in the ignored file `.session-key`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { config } from './env.server';

export const KEY_FILE = '.session-key';

export function parseKey(text: string): Uint8Array {
	const trimmed = text.trim();
	if (/^[A-Za-z0-9_-]{43}$/.test(trimmed)) {
		const raw = Buffer.from(trimmed, 'base64url');
		if (raw.length === 32) return new Uint8Array(raw);
	}
	return new Uint8Array(createHash('sha256').update(trimmed, 'utf8').digest());
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

let cached: { for: string[] | undefined; keys: Uint8Array[] } | undefined;

/** All session keys, the current one first (PLAYGROUND_SESSION_KEY, else the local key file). */
export function sessionKeys(): Uint8Array[] {
	const configured = config().sessionKeys;
	if (!cached || cached.for !== configured)
		cached = {
			for: configured,
			keys: configured ? configured.map(parseKey) : [parseKey(localKey())]
		};
	return cached.keys;
}

/**
 * A 32-byte key for one purpose, derived from the current session key: HMAC-SHA-256 of the purpose.
 * Each purpose gets its own key, and none of them reveals the session key.
 */
export function derivedKey(purpose: string): Uint8Array {
	return new Uint8Array(createHmac('sha256', sessionKeys()[0]!).update(purpose).digest());
}
