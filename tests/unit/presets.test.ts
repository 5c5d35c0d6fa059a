import { expect, test } from 'vitest';
import { presetsFrom } from '$lib/server/flow/presets';
import { parseConfig, variables } from '$lib/config.server.js';
import { SETUP_DEFAULTS } from '$lib/oauth/setup';
import {
	FIELD_ROWS,
	LINK_FIELDS,
	PRESET_FIELDS,
	type DefaultedName
} from '$lib/oauth/setup-fields';

/** A PLAYGROUND_PRESETS value as the server reads it: loaded by the configuration, then checked. */
const parsePresets = (raw: string | undefined) =>
	presetsFrom(parseConfig(raw === undefined ? {} : { PLAYGROUND_PRESETS: raw }).presets);

test('inline JSON presets are read, secrets kept server-side', () => {
	const [p] = parsePresets(
		JSON.stringify([
			{
				name: 'acme',
				base_url: 'https://reader.acme.test/',
				client_id: 'acme-app',
				client_secret: 's',
				scope: 'read'
			}
		])
	);
	expect(p).toMatchObject({
		name: 'acme',
		label: 'acme',
		client_secret: 's',
		setup: {
			base_url: 'https://reader.acme.test',
			client_id: 'acme-app',
			scope: 'read',
			token_location: 'header',
			auto_exchange: true
		}
	});
});
test.each([
	['[not json', /not valid JSON/],
	['[{"name":"a b","base_url":"https://x.test","client_id":"c"}]', /entry 0: field name/],
	['[{"name":"a","base_url":"ftp://x.test","client_id":"c"}]', /entry 0: field base_url/],
	['[{"name":"a","base_url":"https://x.test","client_id":"c","extra":1}]', /entry 0/],
	[
		'[{"name":"a","base_url":"https://x.test","client_id":"c"},{"name":"a","base_url":"https://y.test","client_id":"d"}]',
		/used twice/
	],
	['/no/such/file.json', /cannot be read/]
])('a bad value names what is wrong: %s', (raw, message) => {
	expect(() => parsePresets(raw)).toThrow(message);
});
test('unset means none', () => {
	expect(parsePresets(undefined)).toEqual([]);
});

test('a preset entry holds the setup fields a prefilled link may carry, as PLAYGROUND_PRESETS’s description says', () => {
	// The description (src/lib/config.server.js, which imports nothing of the protocol) names the
	// entry's own words and the required fields, and points at the link's parameters for the rest.
	const description = String(variables.shape.PLAYGROUND_PRESETS.meta()?.description);
	expect(description).toContain('the other setup fields a prefilled link may carry');
	expect([...PRESET_FIELDS].sort()).toEqual([...LINK_FIELDS].sort());
	const required = FIELD_ROWS.filter((f) => f.preset && f.required).map((f) => f.name);
	expect(required).toEqual(['base_url', 'client_id']);
	for (const name of required) expect(description).toContain(`\`${name}\`,`);
	// Each of those fields, at a valid value, is taken by a preset entry.
	const entry: Record<string, unknown> = {
		name: 'p',
		base_url: 'https://reader.test',
		client_id: 'c'
	};
	const valid = (name: string) =>
		entry[name] ?? SETUP_DEFAULTS[name as DefaultedName] ?? 'https://app.test/cb';
	for (const name of LINK_FIELDS)
		expect(() => presetsFrom([{ ...entry, [name]: valid(name) }]), name).not.toThrow();
});
