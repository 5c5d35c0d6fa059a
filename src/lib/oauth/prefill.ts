/**
 * Prefilled links for docs pages: `/?base_url=…&client_id=…&scope=…&redirect_uri=…` plus the advanced
 * settings, in snake_case like OAuth's own parameters. A link never carries a secret: a client_secret,
 * token or code in it is refused, with a warning, and never used.
 */
import { setupSchema, type Setup } from './setup';
import { LINK_FIELDS, SETUP_FIELDS, type LinkName } from './setup-fields';

/**
 * Every parameter a link may carry, with what it means (the /link page lists these): the setup
 * fields a link may carry (setup-fields.ts), in the order a link names them, then the preset.
 */
export const PREFILL_PARAMS = {
	...(Object.fromEntries(LINK_FIELDS.map((name) => [name, SETUP_FIELDS[name].link])) as Record<
		LinkName,
		string
	>),
	preset:
		'The name of a configured preset, e.g. `sandbox-rw`. Other parameters then override the preset’s fields.'
} as const;

type PrefillKey = keyof typeof PREFILL_PARAMS;

/** Parameters that must never travel in a URL. */
export const REFUSED_PARAMS = [
	'client_secret',
	'secret',
	'access_token',
	'refresh_token',
	'id_token',
	'code',
	'password',
	'token'
] as const;

export interface Prefill {
	/** Field values taken from the link (only the valid ones). */
	values: Partial<Setup>;
	preset?: string;
	/** Field → message, for values that were in the link but invalid. */
	errors: Record<string, string>;
	/** Parameters that were refused because they carry a secret. */
	refused: string[];
	/** Parameters this playground does not know, ignored. */
	unknown: string[];
	/** The host the link points the playground at, to be trusted or not. */
	host?: string;
}

const MAX_LINK_VALUE = 2048;

export function hasPrefill(params: URLSearchParams): boolean {
	return [...params.keys()].length > 0;
}

export function parsePrefill(params: URLSearchParams): Prefill {
	const out: Prefill = { values: {}, errors: {}, refused: [], unknown: [] };
	const seen = new Set<string>();
	for (const [key] of params) {
		if (seen.has(key)) continue;
		seen.add(key);
		const lower = key.toLowerCase();
		if ((REFUSED_PARAMS as readonly string[]).includes(lower) || /secret|password/.test(lower)) {
			out.refused.push(key);
			continue;
		}
		if (!Object.hasOwn(PREFILL_PARAMS, key)) {
			out.unknown.push(key);
			continue;
		}
		const all = params.getAll(key);
		if (all.length > 1) {
			out.errors[key] = `${key} appears ${all.length} times; give it once.`;
			continue;
		}
		const raw = all[0]!;
		if (raw.length > MAX_LINK_VALUE) {
			out.errors[key] = `${key} is too long (at most ${MAX_LINK_VALUE} characters).`;
			continue;
		}
		if (key === 'preset') {
			out.preset = raw;
			continue;
		}
		const field = key as Exclude<PrefillKey, 'preset'>;
		const value: unknown =
			SETUP_FIELDS[field].input === 'checkbox'
				? raw === 'true'
					? true
					: raw === 'false'
						? false
						: raw
				: raw;
		const shape = setupSchema.shape[field];
		const parsed = shape.safeParse(value);
		if (parsed.success) (out.values as Record<string, unknown>)[field] = parsed.data;
		else out.errors[key] = parsed.error.issues[0]?.message ?? `${key} is not valid`;
	}
	const base = out.values.base_url ?? out.values.authorization_endpoint;
	if (base) out.host = new URL(base).host;
	return out;
}

/** The link to a setup: the fields that differ from the defaults, never a secret. */
export function prefillLink(
	origin: string,
	setup: Partial<Setup>,
	defaults: Partial<Setup> = {}
): string {
	const url = new URL('/', origin);
	for (const k of LINK_FIELDS) {
		const v = setup[k];
		if (v === undefined || v === '' || v === defaults[k]) continue;
		if (k === 'redirect_uri' && v === `${origin}/callback`) continue;
		url.searchParams.set(k, String(v));
	}
	if (setup.base_url !== undefined && !url.searchParams.has('base_url'))
		url.searchParams.set('base_url', setup.base_url);
	return url.toString();
}

/** A ready "Try it in the playground" link for docs pages. Everything is escaped for HTML. */
export function htmlSnippet(link: string, text = 'Try it in the playground'): string {
	const esc = (s: string) =>
		s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	return `<a href="${esc(link)}" target="_blank" rel="noopener">${esc(text)}</a>`;
}
