/**
 * The setup form as the server renders it, against the table of setup fields it is drawn from
 * (oauth/setup-fields.ts): where each field sits, what kind of control it is, what a field left empty
 * means, and which messages name it. The basic fields have markup of their own, so these tests are
 * also what keeps that markup and the table saying the same thing.
 */
import { describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { DomUtils, parseDocument } from 'htmlparser2';
import SetupFormInFlow from './render/SetupFormInFlow.svelte';
import { FIELD_ROWS, type FieldName } from '$lib/oauth/setup-fields';
import { fieldErrors, setupSchema, setupWith, type Setup } from '$lib/oauth/setup';

/** An element as htmlparser2 parses it. */
type Element = ReturnType<typeof DomUtils.findAll>[number];

const ORIGIN = 'http://127.0.0.1:5173';
const DEFAULTS = setupWith({ base_url: `${ORIGIN}/sandbox`, redirect_uri: `${ORIGIN}/callback` });

/** The form's controls that carry a setup field, in the order they appear, inside or outside Advanced. */
function renderForm(
	setup: Setup | null,
	guardMode: 'local' | 'hosted' = 'hosted',
	prefill: Partial<Setup> | null = null
) {
	const { body } = render(SetupFormInFlow, {
		props: {
			facts: {
				flow: 'f1',
				setup,
				secret: null,
				pending: null,
				callback: null,
				hasCode: false,
				tokens: null
			},
			form: {
				setup,
				defaults: DEFAULTS,
				secret: null,
				errors: {},
				busy: false,
				callbackUrl: `${ORIGIN}/callback`,
				presets: [],
				guardMode,
				submitSetup: () => {},
				submitPreset: () => {},
				prefill
			}
		}
	});
	const doc = parseDocument(body);
	const controls = (root: Element[] | typeof doc) =>
		DomUtils.findAll(
			(e) => ['input', 'select'].includes(e.name) && e.attribs.name !== undefined,
			Array.isArray(root) ? root : root.children
		);
	const advanced = DomUtils.findOne(
		(e) => e.name === 'details' && e.attribs.class === 'advanced',
		doc.children
	)!;
	const inAdvanced = controls([advanced]);
	return {
		/** Whether "Advanced settings" starts open. */
		open: 'open' in advanced.attribs,
		/** The fields outside "Advanced settings", then those inside, by name (radios once each). */
		basic: [
			...new Set(
				controls(doc)
					.filter((e) => !inAdvanced.includes(e))
					.map(nameOf)
			)
		],
		advanced: [...new Set(inAdvanced.map(nameOf))],
		/** The first control of a field, by its name. */
		control: (name: FieldName) => controls(doc).find((e) => e.attribs.name === name)!,
		/** The element the keyboard reaches next after the secret field, and whether it is in its form. */
		afterSecret: () => {
			const stops = DomUtils.findAll(
				(e) =>
					(['input', 'select', 'textarea', 'button', 'summary'].includes(e.name) &&
						e.attribs.type !== 'hidden') ||
					(e.name === 'a' && 'href' in e.attribs),
				doc.children
			);
			const at = stops.findIndex((e) => e.attribs.id === 'client_secret');
			const next = stops[at + 1]!;
			return { next, sameForm: formOf(next) === formOf(stops[at]!) };
		}
	};
}
const nameOf = (e: Element) => String(e.attribs.name);
/** The form an element is in. */
function formOf(e: Element): Element | null {
	for (let p = e.parent; p; p = p.parent) if ('name' in p && p.name === 'form') return p as Element;
	return null;
}

describe('the setup form, from the table of setup fields', () => {
	test('the basic fields come first; the others under "Advanced settings", each group in its place', () => {
		const form = renderForm(null, 'local');
		expect(form.basic).toEqual([
			'base_url',
			'client_id',
			'client_secret',
			'scope',
			'redirect_uri',
			'registered_redirect_uri',
			'auto_exchange'
		]);
		expect(form.advanced).toEqual([
			'authorization_endpoint',
			'token_endpoint',
			'userinfo_endpoint',
			'issuer',
			'token_endpoint_auth_method',
			'pkce',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri',
			'use_par',
			'token_location',
			'custom_state',
			'allow_invalid_tls'
		]);
		// Every field of the table is asked for, once.
		expect([...form.basic, ...form.advanced].filter((n) => n !== 'client_secret').sort()).toEqual(
			FIELD_ROWS.map((f) => f.name).sort()
		);
	});

	test('the table names the group each field is shown in, the ones with markup of their own included', () => {
		const form = renderForm(null, 'local');
		const groupOf = (name: string) => FIELD_ROWS.find((f) => f.name === name)?.group;
		expect(form.basic.filter((n) => n !== 'client_secret').map(groupOf)).toEqual(
			Array(6).fill('basic')
		);
		// Under "Advanced settings": the endpoints and the issuer, the fields for other servers, the rest.
		expect(form.advanced.map(groupOf)).toEqual([
			...Array(4).fill('endpoints'),
			...Array(7).fill('protocol'),
			...Array(3).fill('advanced')
		]);
	});

	test('a hosted playground does not offer to accept invalid certificates', () => {
		expect(renderForm(null, 'hosted').advanced).not.toContain('allow_invalid_tls');
		expect(renderForm(null, 'local').advanced).toContain('allow_invalid_tls');
	});

	test('each control is of the kind the table says', () => {
		const form = renderForm(null, 'local');
		for (const f of FIELD_ROWS) {
			const c = form.control(f.name);
			const kind =
				c.name === 'select' || c.attribs.type === 'radio'
					? 'choice'
					: c.attribs.type === 'checkbox'
						? 'checkbox'
						: c.attribs.type === 'url'
							? 'url'
							: c.attribs.type === undefined
								? 'text'
								: c.attribs.type;
			expect(kind, f.name).toBe(f.input);
		}
	});

	test('what is typed exactly as given is neither completed nor spell-checked', () => {
		const form = renderForm(null, 'local');
		const verbatim = FIELD_ROWS.filter((f) => f.verbatim).map((f) => f.name);
		expect(verbatim).toEqual([
			'custom_state',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri'
		]);
		for (const name of verbatim) {
			expect(form.control(name).attribs.autocomplete, name).toBe('off');
			expect(form.control(name).attribs.spellcheck, name).toBe('false');
		}
	});

	test('an empty field says what it means: the documented path, or none', () => {
		const form = renderForm(null);
		expect(form.control('token_endpoint').attribs.placeholder).toBe(
			`${ORIGIN}/sandbox/oauth2/token`
		);
		for (const name of [
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri'
		] as const)
			expect(form.control(name).attribs.placeholder, name).toBe('empty: none');
		expect(form.control('custom_state').attribs.placeholder).toBe(
			'empty: 32 random bytes, base64url'
		);
	});

	test('"Advanced settings" starts closed while every field under it is at its default, whatever the basic ones say', () => {
		const basicOnly = setupWith({
			base_url: 'https://reader.example',
			redirect_uri: 'https://app.example/cb',
			client_id: 'my-client',
			scope: 'read',
			registered_redirect_uri: 'https://app.example/cb/',
			auto_exchange: false
		});
		expect(renderForm(null).open).toBe(false);
		expect(renderForm(basicOnly).open).toBe(false);
		expect(renderForm({ ...basicOnly, token_location: 'query' }).open).toBe(true);
		expect(renderForm({ ...basicOnly, jwks_uri: 'https://as.example/jwks' }).open).toBe(true);
	});
});

describe('a docs link’s reader', () => {
	test('opened from a docs link, Save comes right after the secret field, in the setup form; else the scope does', () => {
		const reader = renderForm(null, 'hosted', { client_id: 'sandbox-rw' }).afterSecret();
		expect(reader.next.name).toBe('button');
		expect(reader.next.attribs.type).toBe('submit');
		expect(DomUtils.textContent(reader.next).trim()).toBe('Save');
		expect(reader.sameForm).toBe(true);
		const own = renderForm(null).afterSecret();
		expect(own.next.attribs.id).toBe('scope');
	});
});

describe('the messages name the field', () => {
	const refused = (values: Record<string, unknown>) => {
		const result = setupSchema.safeParse({ ...DEFAULTS, client_id: 'c', ...values });
		expect(result.success).toBe(false);
		return fieldErrors(result.error!);
	};

	test('a URL that is not one', () => {
		const named = {
			base_url: 'Base URL',
			redirect_uri: 'Redirect URI',
			authorization_endpoint: 'Authorization endpoint',
			token_endpoint: 'Token endpoint',
			userinfo_endpoint: 'User-info endpoint',
			issuer: 'Issuer',
			revocation_endpoint: 'Revocation endpoint',
			introspection_endpoint: 'Introspection endpoint',
			pushed_authorization_request_endpoint: 'Pushed authorization request endpoint',
			jwks_uri: 'JWKS URI'
		} as const;
		for (const [name, words] of Object.entries(named))
			expect(refused({ [name]: 'reader.example/x' })[name as FieldName], name).toBe(
				`${words} is not a valid URL`
			);
	});

	test('a choice that is not offered', () => {
		expect(
			refused({
				token_location: 'cookie',
				token_endpoint_auth_method: 'private_key_jwt',
				pkce: 'S512'
			})
		).toEqual({
			token_location: 'Choose where the access token goes',
			token_endpoint_auth_method: 'Choose how the client authenticates',
			pkce: 'Choose a PKCE method'
		});
	});
});
