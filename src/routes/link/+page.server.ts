import { presetSetup } from '$lib/server/flow/secret';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = ({ url, locals }) => ({
	origin: url.origin,
	sandbox: locals.app.presets.sandboxEnabled,
	presets: locals.app.presets.list(url.origin).map((p) => ({
		name: p.name,
		label: p.label,
		description: p.description,
		// Whether the reader's page will say that the secret is configured: never the secret itself.
		hasSecret: !!p.client_secret,
		// What the preset fills in (no secret is part of a setup): the builder starts from it.
		setup: presetSetup(p, url.origin)
	}))
});
