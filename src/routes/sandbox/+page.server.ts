// The sandbox's front page: base URL, clients, lifetimes, limits and endpoints.
import { sandboxInfo } from '$lib/sandbox/info.server';
import type { PageServerLoad } from './$types';

export const csr = false;

export const load: PageServerLoad = ({ url }) => sandboxInfo(url.origin);
