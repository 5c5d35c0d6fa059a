import { describe, expect, test } from 'vitest';
import { FIELD_ROWS } from '$lib/oauth/setup-fields';
import { setupSchema } from '$lib/oauth/setup';

describe('the table of setup fields', () => {
	test('each choice lists its values, and its rule accepts exactly those', () => {
		const choices = FIELD_ROWS.filter((f) => f.input === 'choice');
		expect(choices.map((f) => f.name)).toEqual([
			'token_location',
			'token_endpoint_auth_method',
			'pkce'
		]);
		for (const f of choices) {
			expect(f.options?.length, f.name).toBeGreaterThan(1);
			const shape = setupSchema.shape[f.name];
			for (const o of f.options!) expect(shape.safeParse(o).success, `${f.name}=${o}`).toBe(true);
			expect(shape.safeParse('something-else').success, f.name).toBe(false);
		}
	});

	test('no other kind of field lists values', () => {
		for (const f of FIELD_ROWS.filter((f) => f.input !== 'choice'))
			expect(f.options, f.name).toBeUndefined();
	});
});
