/**
 * A catalogue entry: one finding as the user reads it, its code, level, words, fix and the rule it
 * rests on, written together in the catalogue file of its concern (`token.ts`, `transport.ts`).
 * `diagnose.ts` decides which finding applies and raises its entry with `raise`.
 *
 * The entry is the only place its code is written: `FindingCode` (`catalogue/index.ts`) is the
 * union of the codes of every entry, and a module that looks for a finding names its code as a
 * string of that type (`hasCode(f, 'invalid_grant')`). An OAuth error that the service names
 * itself (RFC 6749 §4.1.2.1, §5.2) keeps the service's own spelling as its code, and the entry
 * that explains it says so (`oauthError`): a check that reads the service's error finds the entry
 * by it (`explaining`), and keeps no list of errors of its own.
 */
import type { Finding, Suggestion } from '$lib/exchange/types';
import type { FindingCode } from './index';
import type { GrantType } from '$lib/steps/spec';

/** A text, or a text made from what the check that raises it found. */
type Words<A extends readonly unknown[]> = string | ((...args: A) => string);

export interface Entry<A extends readonly unknown[] = [], C extends string = string> {
	/**
	 * The finding's code; or, for a finding that carries the service's own error code, the function
	 * that takes it from what was found (with the same parameters as the message's).
	 */
	readonly code: C | ((...args: A) => string);
	/**
	 * The code is an OAuth error the service answers with (its `error`), and this entry explains
	 * it: a check finds the entry by the error it read (`explaining`).
	 */
	readonly oauthError?: true;
	/** The grant this entry explains its OAuth error for, when it explains it for one only. */
	readonly grantType?: GrantType;
	/**
	 * The finding says how its step turned out: the step's card shows its message in one line at
	 * its top (the introspection's and the revocation's, TokenAdminStep.svelte).
	 */
	readonly verdict?: true;
	readonly level: Finding['level'];
	readonly message: Words<A>;
	/** What to do about it; a function may answer undefined when the finding has no fix there. */
	readonly fix?: string | ((...args: A) => string | undefined);
	/**
	 * The RFC section or the service's API docs section the finding rests on. Required, so that an
	 * entry without one says so (`ref: undefined`) rather than forgets it.
	 */
	readonly ref: string | undefined;
	/** The setup value the fix names, when it names one (a function may answer undefined). */
	readonly suggest?: (...args: A) => Suggestion | undefined;
}

/** An entry that explains the OAuth error its code is (`explaining` finds it). */
type Explains = { readonly oauthError: true };

/**
 * An entry, its code's type the literal written in it, its arguments' types taken from its
 * message, fix or code function. A call of it has no side effect, which the annotation tells the
 * bundler, so that a bundle leaves out the entries it does not raise.
 */
export function entry<const C extends string, A extends readonly unknown[] = []>(
	e: Entry<A, C> & Explains
): Entry<A, C> & Explains;
export function entry<const C extends string, A extends readonly unknown[] = []>(
	e: Entry<A, C>
): Entry<A, C>;
/* @__NO_SIDE_EFFECTS__ */
export function entry<const C extends string, A extends readonly unknown[] = []>(
	e: Entry<A, C>
): Entry<A, C> {
	return e;
}

const text = <A extends readonly unknown[], R>(w: R | ((...args: A) => R), args: A): R =>
	typeof w === 'function' ? (w as (...args: A) => R)(...args) : w;

/**
 * Which scopes a server takes, in the words of a fix: those its metadata lists
 * (`scopes_supported`), or, when no metadata is known, where they are named. For servers other
 * than the feed-reader service, whose two scopes are its own (the service's API docs §4.1).
 */
export function scopesOf(scopes: readonly string[] | undefined): string {
	return scopes?.length
		? `the server's metadata lists these scopes: ${scopes.map((s) => `"${s}"`).join(', ')}`
		: 'the server’s documentation (or its metadata’s scopes_supported) names the scopes it takes';
}

/**
 * The Finding of an entry, given what its check found. The fields come in the order every finding
 * has had (level, code, message, fix, ref, then the suggestion), and one that is not there is left
 * out.
 */
export function raise<A extends readonly unknown[]>(e: Entry<A>, ...args: A): Finding {
	const fix = text(e.fix, args);
	const suggest = e.suggest?.(...args);
	return {
		level: e.level,
		code: text(e.code, args),
		message: text(e.message, args),
		...(fix === undefined ? {} : { fix }),
		...(e.ref === undefined ? {} : { ref: e.ref }),
		...(suggest ? { suggest } : {})
	};
}

/**
 * The entry among `entries` (the exports of one catalogue file: `Object.values(token)`) that
 * explains the OAuth error `error`: its code is that error, and it says so (`oauthError`). Given
 * the grant that got the error, an entry for another grant only is passed over; without one, any
 * entry of the error answers. Undefined when the file has no words of its own for the error (a
 * name of Object.prototype too: the codes are compared, never looked up as keys).
 */
export function explaining<E>(
	entries: readonly E[],
	error: string,
	grantType?: GrantType
): Extract<E, Explains> | undefined {
	const explains = (e: E): e is Extract<E, Explains> => {
		const x = e as Partial<Entry<never>>;
		return (
			x.oauthError === true &&
			x.code === error &&
			(!grantType || !x.grantType || x.grantType === grantType)
		);
	};
	return entries.find(explains);
}

/**
 * Whether a finding has this code. The code is one the catalogue defines (`FindingCode`), so that a
 * module that looks for a finding names it as its entry writes it, and a code no entry has fails the
 * type check.
 */
export function hasCode(f: Pick<Finding, 'code'>, code: FindingCode): boolean {
	return f.code === code;
}
