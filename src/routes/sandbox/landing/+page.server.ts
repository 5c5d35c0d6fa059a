// The sandbox's own redirect target: shows the URL it was opened with, for paste-back mode.
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url, setHeaders }) => {
	setHeaders({ 'cache-control': 'no-store' });
	return { href: url.href, params: [...url.searchParams] };
};
