/**
 * The playground page's data as its server load returns it (SvelteKit generates the type from the
 * route): what the steps read. The page's universal load adds only the parts it loads (parts.ts).
 */
export type { PageServerData as PageData } from '../../../routes/$types';
