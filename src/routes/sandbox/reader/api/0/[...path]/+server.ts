// The sandbox reader API (the seed §4.4). The logic is in $lib/server/sandbox/api.
import { readerApi } from '$lib/server/sandbox/api';
import type { RequestHandler } from './$types';

const handle: RequestHandler = ({ request, url, params }) => readerApi(request, url, params.path);

export const GET = handle;
export const POST = handle;
export const fallback = handle;
