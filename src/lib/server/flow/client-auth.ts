/**
 * The one place that attaches the client secret to a request. The URL comes from the setup's
 * secret destinations by key (never from a caller), and the secret goes only while its binding
 * matches the setup (secret.ts). A public client (`none`) sends its client id and never a secret,
 * even when one is held.
 */
import { basicCredentials } from '$lib/oauth/auth-methods';
import { secretDestinations, type DestinationKey } from '$lib/oauth/secret-binding';
import { endpoints, type Setup } from '$lib/oauth/setup';
import { endpointKey } from '$lib/oauth/setup-fields';
import type { HeaderList } from '$lib/exchange/types';
import { usableSecret } from './secret';
import type { Session } from '../session/session';
import { noEndpoint, NO_SETUP, refuse, secretNotSent, type Refused } from './refusals';

/** The fields a request body carries to authenticate the client, in the order they go. */
interface BodyCredentials {
	client_id?: string;
	client_secret?: string;
}

export type ClientAuth =
	| {
			ok: true;
			setup: Setup;
			/** The destination's URL, as the setup gives it (the binding holds it normalized). */
			url: string;
			/** `Authorization: Basic …` for client_secret_basic, else nothing. */
			headers: HeaderList;
			/** What goes into the body: id and secret (post), the id alone (none), nothing (basic). */
			body: BodyCredentials;
			/** The secret sent, for redaction (undefined for none). */
			secret?: string;
	  }
	| Refused;

export function clientAuth(session: Session, key: DestinationKey): ClientAuth {
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	const dest = secretDestinations(setup).find((d) => d.key === key);
	const url = endpoints(setup)[endpointKey(key)];
	if (!dest || !url) return refuse(noEndpoint(key));
	const method = setup.token_endpoint_auth_method;
	if (method === 'none')
		return { ok: true, setup, url, headers: [], body: { client_id: setup.client_id } };
	const secret = usableSecret(session);
	if (!secret.ok) return refuse(secretNotSent(secret.message));
	return method === 'client_secret_basic'
		? {
				ok: true,
				setup,
				url,
				headers: [['Authorization', basicCredentials(setup.client_id, secret.secret)]],
				body: {},
				secret: secret.secret
			}
		: {
				ok: true,
				setup,
				url,
				headers: [],
				body: { client_id: setup.client_id, client_secret: secret.secret },
				secret: secret.secret
			};
}
