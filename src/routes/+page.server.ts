import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import {
	callApi,
	checkRegistration,
	exchangeCode,
	pasteBack,
	refreshTokens
} from '$lib/server/flow';
import {
	applyPreset,
	forkFlow,
	replayAction,
	forScript,
	inFlow,
	prefillFrom,
	restart,
	runStep,
	save,
	saveSetup,
	takeOutbox,
	view
} from '$lib/server/page';
import { dropLegacy, emptySession, readSession } from '$lib/server/session';
import { flowParam, newFlowId } from '$lib/oauth/flow-id';
import { resetAction, undoAction, undoExpired } from '$lib/server/undo';
import { readForm, withForm } from '$lib/server/form';
import { pushConsent } from '$lib/server/push-consent';
import { checkJwt, type JwtCheckResult } from '$lib/server/jwt-check';
import { outward } from '$lib/server/way-out';
import { introspect, revoke } from '$lib/server/introspect-revoke';
import { parseApiCall } from '$lib/oauth/api-request';
import { discover, type Discovery } from '$lib/server/discovery';
import { setupSchema } from '$lib/oauth/setup';
import { moveSecretQuestion } from '$lib/server/secret';
import { metadataOrigins, vouchedFor } from '$lib/oauth/token-binding';
import type { RequestEvent } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';

/** The page of one flow, `/?flow=<id>`; without a (well-formed) id, a new flow's. */
export const load: PageServerLoad = async ({ cookies, url }) => {
	dropLegacy(cookies);
	const param = flowParam(url.searchParams);
	if (!param.ok) {
		const session = emptySession();
		return {
			...view(session, url.origin),
			flow: newFlowId(),
			outbox: [],
			prefill: prefillFrom(url)
		};
	}
	const session = await readSession(cookies);
	const outbox = await takeOutbox(cookies, url, session);
	if (session.notice && !session.dropped) await save(cookies, url, { v: 1 });
	else if (undoExpired(session)) await save(cookies, url, session); // drops the old flow
	return {
		...view(session, url.origin),
		flow: param.id,
		outbox,
		prefill: prefillFrom(url, session.setup)
	};
};

const pasteSchema = z.object({
	pasted: z
		.string()
		.trim()
		.min(1, 'Paste the address your application landed on')
		.max(8192, 'That is too long for a redirect address (at most 8192 characters)')
});

const jwtSchema = z.object({
	which: z.enum(['access_token', 'id_token', 'refresh_token', 'pasted'], {
		error: 'Choose which token to check'
	}),
	token: z.string().max(16_000, 'That is too long for a JWT here (at most 16,000 characters)')
});

const whichSchema = z.enum(['access_token', 'refresh_token'], {
	error: 'Choose the access token or the refresh token'
});

async function tokenAdminAction(
	event: RequestEvent,
	step: typeof introspect | typeof revoke
): Promise<unknown> {
	const body = await readForm(event.request);
	if (!body.ok) return body.failure;
	const which = whichSchema.safeParse(body.form.get('which'));
	if (!which.success)
		return fail(400, {
			message: which.error.issues[0]?.message ?? 'Choose a token',
			field: 'which'
		});
	return runStep(event, (s, { sender }) => step(sender, s, which.data, event.request.signal));
}

const discoverSchema = z
	.object({
		base_url: z.union([z.literal(''), setupSchema.shape.base_url]),
		issuer: setupSchema.shape.issuer,
		token_endpoint_auth_method: setupSchema.shape.token_endpoint_auth_method,
		pkce: setupSchema.shape.pkce
	})
	.refine((d) => d.base_url || d.issuer, {
		message: 'Enter the base URL (or the issuer) first: metadata is looked up from it',
		path: ['base_url']
	});

/** Every action of the step registry (ACTIONS), and no other (tests/unit/step-registry.test.ts). */
export const actions: Actions = inFlow({
	check: (event) =>
		runStep(event, (s, { sender, client }) =>
			checkRegistration(sender, s, event.request.signal, event.url.origin, client)
		),
	pasteback: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const parsed = pasteSchema.safeParse({ pasted: body.form.get('pasted') ?? '' });
		if (!parsed.success)
			return fail(400, { message: parsed.error.issues[0]?.message ?? 'Invalid input' });
		return runStep(event, async (s) => pasteBack(s, parsed.data.pasted));
	},
	setup: ({ cookies, url, request }) => withForm(request, (f) => saveSetup(cookies, url, f)),
	preset: ({ cookies, url, request }) => withForm(request, (f) => applyPreset(cookies, url, f)),
	restart: ({ cookies, url, request }) => withForm(request, (f) => restart(cookies, url, f)),
	exchange: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const anyway = body.form.get('anyway') === '1'; // "Exchange anyway", after the issuer check
		return runStep(event, (s, { sender }) =>
			exchangeCode(sender, s, event.request.signal, { anyway })
		);
	},
	refresh: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const auto = body.form.get('auto') === '1';
		return runStep(event, (s, { sender }) =>
			refreshTokens(
				sender,
				s,
				auto ? 'Automatic refresh before expiry (the switch under the tokens).' : undefined,
				event.request.signal
			)
		);
	},
	userinfo: (event) =>
		runStep(event, (s, { sender, client }) =>
			callApi(sender, s, 'userinfo', undefined, event.request.signal, client)
		),
	api: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const form = body.form;
		const text = (k: string) => {
			const v = form.get(k);
			return typeof v === 'string' ? v : '';
		};
		const method = text('method') || 'GET';
		// A form without a body kind (an older page, a script) sends a POST's body as a form.
		const kind = text('body_kind') || (method === 'POST' && text('body') ? 'form' : 'none');
		const parsed = parseApiCall({
			method,
			path: text('path'),
			query: text('query'),
			headers: text('headers'),
			bodyKind: kind,
			body: text('body'),
			contentType: text('content_type')
		});
		if (!parsed.ok) return fail(400, { message: parsed.message, field: parsed.field });
		return runStep(event, (s, { sender, client }) =>
			callApi(sender, s, 'api', parsed.value, event.request.signal, client)
		);
	},
	reset: ({ cookies, url }) => resetAction(cookies, url),
	undo: ({ cookies, url }) => undoAction(cookies, url),
	/** A duplicated tab: a copy of this flow's setup under a new flow id. */
	fork: ({ cookies, url }) => forkFlow(cookies, url),
	/** "Get a code for the script": the consent's code comes back shown, not exchanged. */
	forscript: ({ cookies, url }) => forScript(cookies, url),
	/** "Replay this code", confirmed: in a fork of this flow (server/replay.ts). */
	replay: (event) => replayAction(event),
	/** Push the pending consent request (RFC 9126); the consent link then carries its request_uri. */
	par: (event) => runStep(event, (s, { sender }) => pushConsent(sender, s, event.request.signal)),
	/** Check a JWT's signature against the setup's JWKS URL: one of the flow's tokens, or a pasted one. */
	jwt: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const parsed = jwtSchema.safeParse({
			which: body.form.get('which') ?? '',
			token: body.form.get('token') ?? ''
		});
		if (!parsed.success)
			return fail(400, {
				message: parsed.error.issues[0]?.message ?? 'Invalid input',
				field: 'token'
			});
		let result: JwtCheckResult | undefined;
		const done = await runStep(event, async (s, { sender }) => {
			const r = await checkJwt(
				sender,
				s,
				parsed.data.which,
				parsed.data.token,
				event.request.signal
			);
			result = r.result && outward(r.result, s);
			return r;
		});
		return result && !('status' in done) ? { ...done, jwt: result } : done;
	},
	/** Step 7: introspection of the access or the refresh token (RFC 7662). */
	introspect: (event) => tokenAdminAction(event, introspect),
	/** Step 8: revocation of the access or the refresh token (RFC 7009), then its proof. */
	revoke: (event) => tokenAdminAction(event, revoke),
	/**
	 * "Fill from metadata": reads only the base URL, the issuer and the two choices the fill
	 * respects, never the secret. Nothing is saved; the page fills the form.
	 */
	discover: async (event) => {
		const body = await readForm(event.request);
		if (!body.ok) return body.failure;
		const parsed = discoverSchema.safeParse({
			base_url: body.form.get('base_url') ?? '',
			issuer: body.form.get('issuer') ?? '',
			token_endpoint_auth_method: body.form.get('token_endpoint_auth_method') ?? undefined,
			pkce: body.form.get('pkce') ?? undefined
		});
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			return fail(400, {
				message: issue?.message ?? 'Enter the base URL or the issuer first',
				field: String(issue?.path[0] ?? 'base_url')
			});
		}
		const { base_url, issuer, ...current } = parsed.data;
		let found: Discovery | undefined;
		let secretQuestion: { hosts: string[]; destinations: string[] } | undefined;
		let vouched: string[] = [];
		const done = await runStep(event, async (s, { sender, client }) => {
			const r = await discover(sender, issuer || base_url, current, {
				signal: event.request.signal,
				allowInvalidTls: s.setup?.allow_invalid_tls,
				client
			});
			found = r.discovery;
			if (found.outcome !== 'found') return { ok: true, session: s, exchanges: r.exchanges };
			secretQuestion = moveSecretQuestion(s, { base_url, ...found.values });
			// What the verified metadata names: origins the tokens may go to without a question.
			const metadata_for = {
				issuer: found.values.issuer ?? '',
				token_endpoint: found.values.token_endpoint ?? '',
				origins: metadataOrigins(found.values),
				auth_methods: found.authMethods.slice(0, 16)
			};
			vouched = s.tokens ? vouchedFor(s.tokens_for, metadata_for) : [];
			return { ok: true, session: { ...s, metadata_for }, exchanges: r.exchanges };
		});
		return found && !('status' in done)
			? { ...done, discovery: found, secretQuestion: secretQuestion ?? null, vouched }
			: done;
	}
});
