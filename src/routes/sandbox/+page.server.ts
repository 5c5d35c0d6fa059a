// The sandbox's front page: base URL, clients, lifetimes, limits and endpoints.
import { sandboxInfo } from '$lib/sandbox/info.server';
import { sandboxOf } from '$lib/sandbox/sandbox.server';
import type { PageServerLoad } from './$types';

export const csr = false;

export const load: PageServerLoad = ({ url, locals }) => sandboxInfo(sandboxOf(locals), url.origin);
