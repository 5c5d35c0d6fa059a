import { presets } from '$lib/server/presets';
import { sandboxEnabled } from '$lib/server/presets';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url }) => ({
	origin: url.origin,
	sandbox: sandboxEnabled(),
	presets: presets(url.origin).map((p) => ({
		name: p.name,
		label: p.label,
		description: p.description
	}))
});
