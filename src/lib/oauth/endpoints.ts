/**
 * The endpoints of a setup: the service's API docs' paths below the base URL (§4.1 `/oauth2/auth`,
 * §4.2 `/oauth2/token`, §4.4 `/reader/api/0/user-info`) unless a field overrides one. Apart from
 * setup.ts (and its schema) so that the page can work them out too.
 */
import type { Setup } from './setup';

export interface Endpoints {
	authorization: string;
	token: string;
	userinfo: string;
	/** Prefix of every other API call, ending in a slash. */
	api: string;
	/** The endpoints the service's API docs do not publish: '' when not set. */
	revocation: string;
	introspection: string;
	par: string;
	jwks: string;
}

export type EndpointFields = Pick<
	Setup,
	'base_url' | 'authorization_endpoint' | 'token_endpoint' | 'userinfo_endpoint'
> &
	Partial<
		Pick<
			Setup,
			| 'revocation_endpoint'
			| 'introspection_endpoint'
			| 'pushed_authorization_request_endpoint'
			| 'jwks_uri'
		>
	>;

export function endpoints(setup: EndpointFields): Endpoints {
	const base = setup.base_url.replace(/\/+$/, '');
	return {
		authorization: setup.authorization_endpoint || `${base}/oauth2/auth`,
		token: setup.token_endpoint || `${base}/oauth2/token`,
		userinfo: setup.userinfo_endpoint || `${base}/reader/api/0/user-info`,
		api: `${base}/reader/api/0/`,
		revocation: setup.revocation_endpoint ?? '',
		introspection: setup.introspection_endpoint ?? '',
		par: setup.pushed_authorization_request_endpoint ?? '',
		jwks: setup.jwks_uri ?? ''
	};
}
