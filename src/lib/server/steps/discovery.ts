/**
 * "Fill from metadata": the authorization server's metadata fetched through the one sender and its
 * guard, RFC 8414's well-known URL first, then OpenID Connect Discovery's. A document is judged by
 * oauth4webapi (`processDiscoveryResponse`: status, JSON object, issuer) and then by the exact
 * comparison RFC 8414 §3.3 asks for, which is stricter than the library's (it compares URLs after
 * parsing). The next URL is tried only when there is no document; a refused one stops discovery,
 * and nothing of it is used. Nothing is saved here: the form is filled, and the user saves it.
 * What the fill reads from its form is `metadataLookup`, below.
 */
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import {
	metadataSchema,
	sameIssuer,
	toSetupValues,
	wellKnownUrls,
	type MetadataValues
} from '$lib/oauth/metadata';
import { raise } from '$lib/oauth/catalogue/raise';
import * as said from '$lib/oauth/catalogue/server-metadata';
import { setupSchema, type AuthMethod, type PkceMethod } from '$lib/oauth/setup';
import { headerValue, type Exchange, type Finding } from '$lib/exchange/types';
import { responseOf } from '$lib/oauth/strict-client';
import { metadataOrigins, vouchFor } from '$lib/oauth/token-binding';
import type { StepResult } from './flow-steps';
import { moveSecretQuestion } from '../flow/secret';
import { flowAdvice } from '../flow/flow-advice';
import { sendStep } from './send-step';
import type { Session } from '../session/session';
import { ok, refused, type FormInput } from '../flow/step-forms';
import type { StepContext } from '../flow/context';

type Discovery =
	| {
			outcome: 'found';
			values: MetadataValues;
			scopes: string[];
			issParam: boolean;
			/** `token_endpoint_auth_methods_supported`; an omitted list means client_secret_basic (RFC 8414 §2). */
			authMethods: string[];
	  }
	| { outcome: 'none' | 'refused' };

/** A 2xx JSON answer is a document to judge; anything else (404, an HTML page, no answer) is none. */
function isDocument(ex: Exchange): boolean {
	const res = ex.response;
	if (!res || ex.failure || res.status !== 200) return false;
	return /json/i.test(headerValue(res.headers, 'content-type') ?? '');
}

/** What one document's answer says: found or refused, with its finding; none yet, or none at all. */
interface DocumentVerdict {
	discovery?: Discovery;
	findings: Finding[];
}

/**
 * The answer at a well-known URL, judged. Not a document: nothing yet, or, at the `last` URL, none
 * at all. A document: refused (not JSON, not a metadata object, another issuer, or refused by
 * oauth4webapi) or found.
 */
async function judgeDocument(
	ex: Exchange,
	url: string,
	identifier: string,
	current: { token_endpoint_auth_method: AuthMethod; pkce: PkceMethod },
	last: boolean,
	service: boolean
): Promise<DocumentVerdict> {
	const finish = (discovery: Discovery, finding: Finding) => ({ discovery, findings: [finding] });
	if (!isDocument(ex))
		return last
			? finish(
					{ outcome: 'none' },
					raise(service ? said.METADATA_NONE : said.METADATA_NONE_ELSEWHERE, identifier)
				)
			: { findings: [] };
	const invalid = (why: string): Finding => raise(said.METADATA_INVALID, url, why);
	let json: unknown;
	try {
		json = JSON.parse(ex.response!.body);
	} catch {
		return finish({ outcome: 'refused' }, invalid('it is not JSON'));
	}
	const doc = metadataSchema.safeParse(json);
	if (!doc.success) {
		const issue = doc.error.issues[0];
		return finish(
			{ outcome: 'refused' },
			invalid(
				issue?.path.length
					? `its member ${issue.path.join('.')} ${issue.message}`
					: 'it is not a JSON object with an issuer'
			)
		);
	}
	if (!sameIssuer(doc.data.issuer, identifier))
		return finish(
			{ outcome: 'refused' },
			raise(said.METADATA_ISSUER_MISMATCH, doc.data.issuer, identifier)
		);
	// The library's own checks, on the same bytes: status, Content-Type, a JSON object, the issuer.
	try {
		const res = responseOf(ex);
		if (res) await oauth.processDiscoveryResponse(new URL(identifier), res);
	} catch (e) {
		return finish(
			{ outcome: 'refused' },
			invalid(e instanceof Error ? e.message : 'oauth4webapi refused it')
		);
	}
	return finish(
		{
			outcome: 'found',
			values: toSetupValues(doc.data, current),
			scopes: doc.data.scopes_supported ?? [],
			authMethods: doc.data.token_endpoint_auth_methods_supported ?? ['client_secret_basic'],
			issParam: doc.data.authorization_response_iss_parameter_supported === true
		},
		raise(said.METADATA_FOUND, identifier)
	);
}

/**
 * The well-known URLs in turn, each through the step's one send: the next is tried only when there
 * is no document at this one. The finding that says what was found goes on the last exchange.
 */
async function discover(
	c: StepContext,
	session: Session,
	identifier: string,
	current: { token_endpoint_auth_method: AuthMethod; pkce: PkceMethod },
	service: boolean
): Promise<{ discovery: Discovery; exchanges: Exchange[] }> {
	const exchanges: Exchange[] = [];
	const urls = wellKnownUrls(identifier);
	for (const [i, url] of urls.entries()) {
		const last = i === urls.length - 1;
		// A GET on a kept-alive connection the server had closed is sent again: both attempts shown.
		const sent = await sendStep(
			c,
			session,
			{
				step: 'discovery',
				method: 'GET',
				url,
				note:
					i === 0
						? 'The authorization server’s metadata, at RFC 8414’s well-known URL.'
						: 'The metadata at OpenID Connect Discovery’s well-known URL.'
			},
			{
				retry: true,
				diagnosis: false,
				judge: (answer) => judgeDocument(answer, url, identifier, current, last, service)
			}
		);
		exchanges.push(...sent.exchanges);
		if (sent.judged?.discovery) return { discovery: sent.judged.discovery, exchanges };
	}
	return { discovery: { outcome: 'none' }, exchanges };
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

export interface MetadataLookup {
	base_url: string;
	issuer: string;
	/** The two choices the fill respects. */
	current: { token_endpoint_auth_method: AuthMethod; pkce: PkceMethod };
}

/**
 * "Fill from metadata": only the base URL, the issuer and the two choices the fill respects, never
 * the secret.
 */
export const metadataLookup: FormInput<MetadataLookup> = (form) => {
	const parsed = discoverSchema.safeParse({
		base_url: form.get('base_url') ?? '',
		issuer: form.get('issuer') ?? '',
		token_endpoint_auth_method: form.get('token_endpoint_auth_method') ?? undefined,
		pkce: form.get('pkce') ?? undefined
	});
	if (parsed.success) {
		const { base_url, issuer, ...current } = parsed.data;
		return ok({ base_url, issuer, current });
	}
	return refused(parsed.error, String(parsed.error.issues[0]?.path[0] ?? 'base_url'));
};

/**
 * The "Fill from metadata" step: the document is looked up, and when one is found, the page is told
 * whether the secret would go to new hosts (`secretQuestion`) and which token destinations the
 * verified metadata vouches for; the session remembers what it named (`metadata_for`). The form is
 * filled by the page; nothing of the setup is saved.
 */
export async function fillFromMetadata(
	c: StepContext,
	session: Session,
	{ base_url, issuer, current }: MetadataLookup
): Promise<StepResult> {
	// "None" is the feed-reader service's own (its API docs describe no metadata) only when the base
	// URL looked up is that of the saved setup, and that setup is the service's (oauth/advice.ts).
	const saved = session.setup?.base_url.replace(/\/+$/, '');
	const service =
		!issuer &&
		(saved === undefined || saved === base_url.replace(/\/+$/, '')) &&
		flowAdvice(c.app.presets, session, c.origin).service;
	const { discovery, exchanges } = await discover(c, session, issuer || base_url, current, service);
	if (discovery.outcome !== 'found')
		return {
			ok: true,
			session,
			exchanges,
			answer: { discovery, secretQuestion: null, vouched: null }
		};
	const secretQuestion = moveSecretQuestion(session, { base_url, ...discovery.values });
	// What the verified metadata names: origins the tokens may go to without a question, when it is
	// the metadata of the issuer the tokens are bound to (oauth/token-binding.ts).
	const metadata_for = {
		issuer: discovery.values.issuer ?? '',
		token_endpoint: discovery.values.token_endpoint ?? '',
		origins: metadataOrigins(discovery.values),
		auth_methods: discovery.authMethods.slice(0, 16),
		...(discovery.scopes.length ? { scopes: discovery.scopes.slice(0, 32) } : {}),
		...(discovery.values.userinfo_endpoint && discovery.scopes.includes('openid')
			? { openid_userinfo: discovery.values.userinfo_endpoint }
			: {})
	};
	const vouched = session.tokens ? vouchFor(session.tokens_for, metadata_for) : null;
	return {
		ok: true,
		session: { ...session, metadata_for },
		exchanges,
		answer: { discovery, secretQuestion: secretQuestion ?? null, vouched }
	};
}
