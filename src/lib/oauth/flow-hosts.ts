/**
 * The hosts a flow's setup sends something to, for the banner of a flow the tab did not start
 * (ui/tab-flow.ts): the consent page (where the user signs in), every URL that receives the client
 * secret (secret-binding.ts), the API and the user-info endpoint (which receive the access token,
 * token-binding.ts) and the redirect URI (which receives the code). A flow whose every host is the
 * playground's own (its built-in sandbox) sends nothing anywhere else: there is no host to check.
 */
import { endpoints } from './endpoints';
import type { Setup } from './setup';
import { secretHosts } from './secret-binding';
import { tokenDestinations } from './token-binding';

export interface FlowHosts {
	/** Every host but the playground's own that the setup sends the user, the secret, a token or the code to, once each. */
	hosts: string[];
	/** The hosts that receive the client secret, each with what it is ("127.0.0.1:9 (token endpoint)"). */
	secret: string[];
	/** The hosts that receive the access token, each with what it is ("127.0.0.1:9 (API, user-info endpoint)"). */
	token: string[];
}

const hostOf = (u: string) => (URL.canParse(u) ? new URL(u).host : u);

/** Each host once, in order, with the labels of what it is, as "host (label, label)". */
function labelled(items: { host: string; label: string }[]): string[] {
	const byHost = new Map<string, string[]>();
	for (const { host, label } of items) byHost.set(host, [...(byHost.get(host) ?? []), label]);
	return [...byHost].map(([host, labels]) => `${host} (${labels.join(', ')})`);
}

/** The hosts of this setup, or null when every one is `ownHost` (the playground's own: nothing to check). */
export function flowHosts(setup: Setup, ownHost: string): FlowHosts | null {
	const e = endpoints(setup);
	const token = tokenDestinations(setup).map((d) => ({
		host: hostOf(d.origin),
		label: d.label
	}));
	const secret = secretHosts(setup);
	const hosts = [
		...new Set(
			[e.authorization, e.token, e.revocation, e.introspection, e.par, setup.redirect_uri]
				.filter(Boolean)
				.map(hostOf)
				.concat(token.map((t) => t.host))
		)
	];
	const others = hosts.filter((h) => h !== ownHost);
	if (!others.length) return null;
	return { hosts: others, secret, token: labelled(token) };
}
