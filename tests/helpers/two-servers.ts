/**
 * The two authorization servers the integration tests try a flow against, as a developer enters
 * them in the playground: its built-in sandbox, and oidc-provider (tests/helpers/oidc.ts). Each
 * gives the setup of its good confidential client, secret included, and follows a consent URL to
 * the address the browser is sent back to. The servers are read when a test runs (`beforeAll`
 * starts them), hence the getters.
 */
import { Client, decide } from './client';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, signInAndConsent, type OidcServer } from './oidc';
import type { TestServer } from './server';

export interface FlowServer {
	name: string;
	setup: () => Record<string, string>;
	consent: (c: Client, url: string) => Promise<string>;
}

/** The sandbox's consent: its page and Authorize, or the redirect it answers with at once. */
export async function sandboxConsent(c: Client, url: string): Promise<string> {
	const { res } = await c.fetch(url, { headers: { accept: 'text/html' } });
	const location = res.headers.get('location');
	return location ? new URL(location, url).toString() : decide(c, url);
}

export function sandboxServer(srv: () => TestServer): FlowServer {
	return {
		name: 'the sandbox',
		setup: () => ({
			base_url: `${srv().url}/sandbox`,
			client_id: 'sandbox-rw',
			client_secret: 'sandbox-rw-secret',
			scope: 'read write'
		}),
		consent: sandboxConsent
	};
}

export function oidcServer(oidc: () => OidcServer): FlowServer {
	return {
		name: 'oidc-provider',
		setup: () => ({
			base_url: oidc().issuer,
			client_id: OIDC_CLIENT_ID,
			client_secret: OIDC_CLIENT_SECRET,
			scope: 'openid read write',
			authorization_endpoint: oidc().endpoints.authorization,
			token_endpoint: oidc().endpoints.token,
			userinfo_endpoint: oidc().endpoints.userinfo
		}),
		consent: (_c, url) => signInAndConsent(new Client(oidc().origin), url)
	};
}
