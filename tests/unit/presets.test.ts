import { expect, test } from 'vitest';
import { presetsFrom } from '$lib/server/presets';
import { parseConfig } from '$lib/config.server.js';

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
