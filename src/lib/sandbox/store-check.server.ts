/**
 * Whether the Redis-protocol server REDIS_URL names keeps what the sandbox must remember: the used
 * codes, the consent decisions and the refresh families. A server without persistence forgets all
 * of it on a restart; one that evicts keys forgets some of it under memory pressure. Then a
 * redeemed code could be redeemed again and a replayed consent ticket mint a new code.
 *
 * Read once at start (`hooks.server.ts` `init`): `CONFIG GET appendonly`, `save` and
 * `maxmemory-policy`, or, where `CONFIG` is refused (managed servers often disable it), `INFO
 * persistence` and `INFO memory`, which tell the append-only file and the eviction policy but not
 * whether snapshots are taken. `storeVerdict` turns what was read into good, warn or refuse.
 *
 * Whatever the server reports, the generation marker (store.server.ts) makes a store that forgot
 * everything fail closed; this check is about the stores that forget a part.
 */
import type { Redis } from 'ioredis';
import { whenReady } from '$lib/redis.server';

export interface StoreSettings {
	/** Where they were read: `CONFIG GET`, `INFO` (CONFIG refused), or nowhere. */
	source: 'config' | 'info' | 'none';
	/** The append-only file is on; undefined: unknown. */
	appendonly?: boolean;
	/** RDB snapshots are configured (`save` is not empty); undefined: unknown (INFO does not say). */
	snapshots?: boolean;
	/** `maxmemory-policy`; undefined: unknown. */
	evictionPolicy?: string;
	/** Why nothing could be read, when `source` is 'none'. */
	problem?: string;
}

export type StoreVerdict =
	| { verdict: 'good' }
	| { verdict: 'warn'; message: string }
	| { verdict: 'refuse'; message: string };

/** `CONFIG GET name`'s answer, `[name, value]`, as its value. */
function configValue(answer: unknown): string {
	if (Array.isArray(answer) && answer.length >= 2) return String(answer[1]);
	throw new Error('no such setting');
}

/** `INFO section`'s `key:value` lines. */
function infoFields(text: string): Map<string, string> {
	const fields = new Map<string, string>();
	for (const line of text.split(/\r?\n/)) {
		const colon = line.indexOf(':');
		if (colon > 0 && !line.startsWith('#'))
			fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
	}
	return fields;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The server's persistence and eviction settings, as far as it tells them. */
export async function readStoreSettings(redis: Redis): Promise<StoreSettings> {
	try {
		await whenReady(redis);
	} catch (e) {
		return { source: 'none', problem: `unreachable: ${message(e)}` };
	}
	try {
		const [appendonly, save, policy] = await Promise.all(
			['appendonly', 'save', 'maxmemory-policy'].map(async (name) =>
				configValue(await redis.call('CONFIG', 'GET', name))
			)
		);
		return {
			source: 'config',
			appendonly: appendonly === 'yes',
			snapshots: save!.trim() !== '',
			evictionPolicy: policy
		};
	} catch (configRefused) {
		try {
			const persistence = infoFields(await redis.info('persistence'));
			const memory = infoFields(await redis.info('memory'));
			const aof = persistence.get('aof_enabled');
			const policy = memory.get('maxmemory_policy');
			return {
				source: 'info',
				...(aof !== undefined && { appendonly: aof === '1' }),
				...(policy !== undefined && { evictionPolicy: policy })
			};
		} catch (e) {
			return {
				source: 'none',
				problem: `CONFIG and INFO are both refused (${message(configRefused)}; ${message(e)})`
			};
		}
	}
}

/** What the sandbox keeps there, and what a store that loses it lets through. */
const AT_RISK =
	'A used code could then be used again, and a replayed consent ticket mint a new code.';
const FIX = 'Use a server with appendonly yes and maxmemory-policy noeviction';

/**
 * The verdict on a store's settings: append-only with `noeviction` is good; snapshots only (RDB, no
 * append-only file) with `noeviction`, a warning (a restart loses what changed since the last
 * snapshot); anything else, or unknown, is unsafe: hosted mode refuses to start on it unless
 * PLAYGROUND_STORE_UNSAFE=accept, local mode warns.
 */
export function storeVerdict(
	s: StoreSettings,
	options: { mode: 'local' | 'hosted'; unsafe?: 'accept' }
): StoreVerdict {
	const keeps = s.evictionPolicy === 'noeviction';
	if (keeps && s.appendonly === true) return { verdict: 'good' };
	const read = s.source === 'info' ? ' (read with INFO: CONFIG is refused)' : '';
	if (keeps && s.appendonly === false && s.snapshots === true)
		return {
			verdict: 'warn',
			message:
				`The sandbox's store (REDIS_URL) keeps snapshots only (RDB; appendonly is off)${read}: ` +
				'a restart loses what changed since the last snapshot, so a code used since then could be ' +
				'used again. Turn appendonly on for a store that forgets nothing.'
		};
	const reasons: string[] = [];
	if (s.source === 'none') reasons.push(`its settings could not be read (${s.problem})`);
	else {
		if (s.appendonly === undefined) reasons.push('whether it persists anything is not known');
		else if (s.appendonly === false)
			reasons.push(
				s.snapshots === false
					? 'appendonly is off and no snapshots are taken: a restart empties it'
					: 'appendonly is off and whether snapshots are taken is not known'
			);
		if (s.evictionPolicy === undefined) reasons.push('its eviction policy is not known');
		else if (!keeps)
			reasons.push(
				`maxmemory-policy is ${s.evictionPolicy}: under memory pressure it evicts what the sandbox keeps`
			);
	}
	const text = `The sandbox's store (REDIS_URL) may forget what it must keep: ${reasons.join('; ')}${read}. ${AT_RISK}`;
	if (options.mode === 'hosted' && options.unsafe !== 'accept')
		return {
			verdict: 'refuse',
			message: `${text} ${FIX}, or set PLAYGROUND_STORE_UNSAFE=accept to run on it anyway.`
		};
	return {
		verdict: 'warn',
		message:
			options.unsafe === 'accept'
				? `${text} Starting anyway (PLAYGROUND_STORE_UNSAFE=accept).`
				: `${text} ${FIX}; hosted mode refuses to start on it.`
	};
}
