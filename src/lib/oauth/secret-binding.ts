/**
 * A client secret belongs to one client. It authenticates that client to the URLs that receive it
 * (RFC 6749 §2.3.1: the token endpoint), so it is bound to the client id and to exactly those
 * URLs, as they stood when it was entered. A change of any of them drops it: the secret is entered again for the
 * new client, and is never sent where it was not typed for.
 *
 * `secretDestinations` is the one list of the URLs that receive the secret. An endpoint that
 * authenticates the client (revocation, introspection, pushed authorization requests) is added
 * there, and the binding, the check before sending and the docs-link banner all follow from it.
 */
import { endpoints, type EndpointFields } from './endpoints';
import type { Setup } from './setup';
import { SECRET_RECEIVERS, endpointKey, fieldWords, type SecretReceiverName } from './setup-fields';

/** The setup fields the destinations are worked out from. */
export type DestinationFields = EndpointFields;

export interface SecretDestination {
	/** A stable key, stored in the binding. */
	key: string;
	/** What it is, in words ("token endpoint"). */
	label: string;
	/** The URL as the sender will use it (WHATWG-normalized), or as given when it does not parse. */
	url: string;
}

const normalize = (u: string) => (URL.canParse(u) ? new URL(u).href : u);

/**
 * Every URL that receives the client secret for this setup: the endpoint of each field the table of
 * setup fields marks so (setup-fields.ts), in its order: the token endpoint always, and the endpoints
 * that authenticate the client (RFC 7009 §2.1, RFC 7662 §2.1, RFC 9126 §2) when they are set. An
 * endpoint that is not set receives nothing and is not part of the binding, so a binding made before
 * one was set still matches until it is.
 */
export function secretDestinations(setup: DestinationFields): SecretDestination[] {
	const e = endpoints(setup);
	return SECRET_RECEIVERS.flatMap((key) => {
		const url = e[endpointKey(key)];
		return url ? [{ key, label: fieldWords(key), url: normalize(url) }] : [];
	});
}

export type DestinationKey = SecretReceiverName;

/** What a secret is bound to: the client id and each receiving URL by key. */
export interface SecretBinding {
	client_id: string;
	urls: Record<string, string>;
}

export function bindSecret(setup: DestinationFields & Pick<Setup, 'client_id'>): SecretBinding {
	return {
		client_id: setup.client_id,
		urls: Object.fromEntries(secretDestinations(setup).map((d) => [d.key, d.url]))
	};
}

const labelOf = (key: string) => key.replace(/_/g, ' ');

/**
 * What differs between a binding and a setup, in words, in a fixed order ("client id", then the
 * destinations): empty when the secret may go with this setup. No binding at all differs in the
 * client id and every destination, so a secret without one is never sent.
 */
export function bindingChanges(
	binding: SecretBinding | undefined,
	setup: DestinationFields & Pick<Setup, 'client_id'>
): string[] {
	const now = secretDestinations(setup);
	if (!binding) return ['client id', ...now.map((d) => d.label)];
	const changes: string[] = [];
	if (binding.client_id !== setup.client_id) changes.push('client id');
	const keys = new Set([...now.map((d) => d.key), ...Object.keys(binding.urls)]);
	for (const key of keys) {
		const dest = now.find((d) => d.key === key);
		if (!Object.hasOwn(binding.urls, key) || binding.urls[key] !== dest?.url)
			changes.push(dest?.label ?? labelOf(key));
	}
	return changes;
}

/** "the client id", "the client id and the token endpoint", "the a, the b and the c". */
export function listChanges(changes: string[]): string {
	const words = changes.map((c) => `the ${c}`);
	return words.length <= 1
		? (words[0] ?? '')
		: `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * What a docs link changes of a preset that the preset's secret is bound to ("the client id and
 * the token endpoint"), or undefined when the secret may go with the link's setup. The reader's
 * page (server/flow/page.ts) and /link's preview of it judge by this one function.
 */
export function presetChanged(
	preset: DestinationFields & Pick<Setup, 'client_id'>,
	setup: DestinationFields & Pick<Setup, 'client_id'>
): string | undefined {
	const changes = bindingChanges(bindSecret(preset), setup);
	return changes.length ? listChanges(changes) : undefined;
}

/** What the form says when a save dropped the secret, naming what changed. */
export function secretClearedMessage(changes: string[], presetLabel?: string): string {
	const what = listChanges(changes);
	return presetLabel
		? `The secret was cleared because ${what} changed: this is no longer the preset “${presetLabel}”, whose secret stays with its own client. Enter the client secret for this client.`
		: `The secret was cleared because ${what} changed; enter it again.`;
}

/** What the form says when an edit made a preset (without a secret of its own) a setup of the user's. */
export function presetDetachedMessage(changes: string[], presetLabel: string): string {
	return `This is no longer the preset “${presetLabel}”: ${listChanges(changes)} changed.`;
}

/** Why a secret held for another client or URL is not sent (the check before sending). */
export function secretMismatchMessage(changes: string[]): string {
	return `The client secret was entered for another client: ${listChanges(changes)} changed since, so it is not sent. Enter the client secret in the setup again.`;
}

/**
 * The hosts that would receive the secret, each with what it is there ("127.0.0.1:9000 (token
 * endpoint)"), in order, one entry per host. URLs that do not parse are left out.
 */
export function secretHosts(setup: DestinationFields): string[] {
	const byHost = new Map<string, string[]>();
	for (const d of secretDestinations(setup)) {
		if (!URL.canParse(d.url)) continue;
		const host = new URL(d.url).host;
		byHost.set(host, [...(byHost.get(host) ?? []), d.label]);
	}
	return [...byHost].map(([host, labels]) => `${host} (${labels.join(', ')})`);
}
