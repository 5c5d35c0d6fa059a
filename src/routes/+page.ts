import { pageParts } from '$lib/ui/steps/parts';
import type { PageLoad } from './$types';

/** The server's data, with the parts of the page it needs loaded (lib/ui/steps/parts.ts). */
export const load: PageLoad = async ({ data }) => ({ ...data, ...(await pageParts(data)) });
