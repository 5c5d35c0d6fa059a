// The sandbox's front page: base URL, clients, lifetimes, limits and endpoints.
import { sandboxInfo } from '$lib/server/sandbox/info';
import type { PageServerLoad } from './$types';

export const csr = false;

export const load: PageServerLoad = ({ url }) => sandboxInfo(url.origin);
