/**
 * Named setups the page offers as one-click presets. The built-in sandbox clients are always there
 * (when the sandbox is on). A preset's secret stays on the server: choosing one seals it into the session.
 */
import type { Setup } from '$lib/oauth/setup';
import { builtinClients } from './sandbox/clients';

export interface Preset {
	name: string;
	label: string;
	description: string;
	setup: Omit<Setup, 'redirect_uri'> & { redirect_uri?: string };
	client_secret: string;
}

export function sandboxEnabled(): boolean {
	return (process.env.SANDBOX ?? 'on').toLowerCase() !== 'off';
}

export function presets(origin: string): Preset[] {
	if (!sandboxEnabled()) return [];
	return builtinClients().map((c) => ({
		name: c.client_id,
		label: c.client_id === 'sandbox-rw' ? 'Sandbox (read write)' : c.client_id === 'sandbox-ro' ? 'Sandbox (read only)' : `Sandbox (${c.client_id})`,
		description: `${c.name}: default scope "${c.default_scope}"${c.access_ttl ? `, access token lives ${c.access_ttl} s` : ''}.`,
		setup: {
			base_url: `${origin}/sandbox`,
			client_id: c.client_id,
			scope: c.default_scope,
			authorization_endpoint: '',
			token_endpoint: '',
			userinfo_endpoint: '',
			token_location: 'header',
			custom_state: '',
			auto_exchange: true,
			allow_invalid_tls: false
		},
		client_secret: c.client_secret
	}));
}
