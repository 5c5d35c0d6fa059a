// The sandbox reader API (the service's API docs §4.4). The logic is in $lib/sandbox/api.server.
import { readerApi } from '$lib/sandbox/api.server';
import { sandboxOf } from '$lib/sandbox/sandbox.server';
import type { RequestHandler } from './$types';

const handle: RequestHandler = ({ request, url, params, locals }) =>
	readerApi(sandboxOf(locals), request, url, params.path);

export const GET = handle;
export const POST = handle;
export const fallback = handle;
