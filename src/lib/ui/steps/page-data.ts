/** The playground page's data, as its load returns it; SvelteKit generates the type from the route. */
export type { PageData } from '../../../routes/$types';
