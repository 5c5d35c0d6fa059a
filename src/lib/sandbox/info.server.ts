/**
 * What the /sandbox page tells a visitor: base URL, endpoints, clients, lifetimes and limits.
 * Secrets are shown for the built-in clients only (they are public); SANDBOX_CLIENTS secrets never are.
 */
import type { SandboxScope } from './sandbox-config.server';
import { builtinClients, findClient, registeredRedirectUris } from './clients.server';
import { endpointList } from './api.server';
import { DEMO_USER } from './demo.server';
import { TICKET_TTL } from './signing.server';
import {
	HOSTED_GRANT_WINDOW_S,
	HOSTED_GRANTS_PER_ADDRESS,
	MAX_STATE_BYTES
} from './authorize.server';
import type { Sandbox } from './sandbox.server';

export interface SandboxInfoClient {
	client_id: string;
	client_secret?: string;
	name: string;
	default_scope: SandboxScope;
	access_ttl: number;
	redirect_uris: string[];
	zone1_limit: number;
	zone2_limit: number;
}

export function sandboxInfo({ settings: config, mode }: Sandbox, origin: string) {
	const base = `${origin}/sandbox`;
	const describe = (client_id: string, secret?: string): SandboxInfoClient => {
		const c = findClient(config, client_id)!;
		return {
			client_id: c.client_id,
			...(secret !== undefined && { client_secret: secret }),
			name: c.name,
			default_scope: c.default_scope,
			access_ttl: c.access_ttl ?? config.accessTtl,
			redirect_uris: registeredRedirectUris(config, c, origin),
			zone1_limit: c.zone1_limit ?? config.zone1Limit,
			zone2_limit: c.zone2_limit ?? config.zone2Limit
		};
	};
	return {
		base,
		endpoints: {
			authorization: `${base}/oauth2/auth`,
			token: `${base}/oauth2/token`,
			api: `${base}/reader/api/0/`,
			landing: `${base}/landing`
		},
		clients: builtinClients().map((c) => describe(c.client_id, c.client_secret)),
		extraClients: config.extraClients.map((c) => describe(c.client_id)),
		lifetimes: {
			code: config.codeTtl,
			access: config.accessTtl,
			refresh: config.refreshTtl,
			consentForm: TICKET_TTL,
			/** SANDBOX_REFRESH_REUSE_SECONDS: how long the previous refresh token is accepted again (0: never). */
			refreshReuse: config.refreshReuseWindow
		},
		limits: { zone1: config.zone1Limit, zone2: config.zone2Limit, window: config.limitWindow },
		/** Hosted mode: demo data and budgets per grant (sign-in), and a cap of grants per address. */
		perVisitor: mode === 'hosted',
		grantsPerAddress: { count: HOSTED_GRANTS_PER_ADDRESS, window: HOSTED_GRANT_WINDOW_S },
		maxStateBytes: MAX_STATE_BYTES,
		api: endpointList(),
		user: { name: DEMO_USER.userName, email: DEMO_USER.userEmail, userId: DEMO_USER.userId }
	};
}
