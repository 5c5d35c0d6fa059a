/**
 * The endpoints of a setup: the service's API docs' paths below the base URL (§4.1 `/oauth2/auth`,
 * §4.2 `/oauth2/token`, §4.4 `/reader/api/0/user-info`) unless a field overrides one. Apart from
 * setup.ts (and its schema) so that the page can work them out too.
 */
import type { Setup } from './setup';
import {
	ENDPOINT_FIELDS,
	rowOf,
	type DocumentedEndpointName,
	type EndpointName
} from './setup-fields';

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

/** The fields the endpoints are worked out from: those the service's API docs publish must be there. */
export type EndpointFields = Pick<Setup, 'base_url' | DocumentedEndpointName> &
	Partial<Pick<Setup, Exclude<EndpointName, DocumentedEndpointName>>>;

/**
 * Each endpoint field's URL (the table of setup fields, setup-fields.ts): the field's value, else
 * the path the service's API docs give it below the base URL, else '' (none). The API's prefix comes
 * after the endpoints the service's API docs publish.
 */
export function endpoints(setup: EndpointFields): Endpoints {
	const base = setup.base_url.replace(/\/+$/, '');
	const urlOf = (name: EndpointName): [string, string] => {
		const { key, path } = rowOf(name).endpoint!;
		return [key, setup[name] || (path ? `${base}${path}` : '')];
	};
	const documented = (name: EndpointName) => !!rowOf(name).endpoint!.path;
	return {
		...Object.fromEntries(ENDPOINT_FIELDS.filter(documented).map(urlOf)),
		api: `${base}/reader/api/0/`,
		...Object.fromEntries(ENDPOINT_FIELDS.filter((n) => !documented(n)).map(urlOf))
	} as unknown as Endpoints;
}
