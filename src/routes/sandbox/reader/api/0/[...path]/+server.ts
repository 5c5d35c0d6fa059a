// The sandbox reader API (the service's API docs §4.4). The logic is in $lib/sandbox/api.server.
import { readerApi } from '$lib/sandbox/api.server';
import type { RequestHandler } from './$types';

const handle: RequestHandler = ({ request, url, params }) => readerApi(request, url, params.path);

export const GET = handle;
export const POST = handle;
export const fallback = handle;
