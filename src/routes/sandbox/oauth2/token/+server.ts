// The sandbox token endpoint (RFC 6749 §3.2; the seed §4.2, §4.3). The logic is in $lib/server/sandbox/token.
import { tokenEndpoint, tokenMethodNotAllowed } from '$lib/server/sandbox/token';
import type { RequestHandler } from './$types';

export const POST: RequestHandler = ({ request, url }) => tokenEndpoint(request, url.origin);

export const fallback: RequestHandler = () => tokenMethodNotAllowed();
