// The sandbox token endpoint (RFC 6749 §3.2; the service's API docs §4.2, §4.3). The logic is in
// $lib/sandbox/token.server.
import { tokenEndpoint, tokenMethodNotAllowed } from '$lib/sandbox/token-route.server';
import { sandboxOf } from '$lib/sandbox/sandbox.server';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ request, url, locals }) =>
	tokenEndpoint(sandboxOf(locals), request, url.origin);

export const fallback: RequestHandler = () => tokenMethodNotAllowed();
