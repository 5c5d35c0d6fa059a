// The sandbox consent page (RFC 6749 §4.1.1; the service's API docs §4.1). Unknown clients and unregistered
// redirect URIs are answered earlier, as JSON, by sandboxPreflight in the server hook.
import { error, redirect, type RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import {
	checkAuthorizationRequest,
	consentView,
	decideConsent,
	decisionIsSameOrigin,
	unavailableMessage,
	type Decision
} from '$lib/sandbox/authorize.server';
import { StoreUnavailable } from '$lib/sandbox/store.server';
import { readForm } from '$lib/server/flow/form';
import { clientAddress } from '$lib/proxy.server';
import { sandboxOf } from '$lib/sandbox/sandbox.server';
import type { Actions, PageServerLoad } from './$types';

export const csr = false;

export const load: PageServerLoad = async ({ url, setHeaders, locals }) => {
	const sandbox = sandboxOf(locals);
	const check = checkAuthorizationRequest(sandbox.settings, url.searchParams, url.origin);
	if (check.kind === 'fatal') error(400, `${check.error}: ${check.error_description}`);
	if (check.kind === 'redirect') redirect(302, check.location);
	setHeaders({ 'cache-control': 'no-store' });
	try {
		return await consentView(sandbox, check);
	} catch (e) {
		if (e instanceof StoreUnavailable) error(503, unavailableMessage(e));
		throw e;
	}
};

const decisionForm = z.object({ ticket: z.string().optional() });

async function decide(event: RequestEvent, decision: Decision): Promise<never> {
	if (!decisionIsSameOrigin(event.request.headers, event.url.origin)) {
		error(403, 'This decision was sent from another site and is refused.');
	}
	const body = await readForm(event.request);
	if (!body.ok) error(400, body.failure.data.message);
	const form = decisionForm.safeParse(Object.fromEntries(body.form));
	const sandbox = sandboxOf(event.locals);
	const result = await decideConsent(
		sandbox,
		form.success ? form.data.ticket : undefined,
		decision,
		// Read only in hosted mode, where the grant cap counts it.
		() => clientAddress(event, sandbox.config.proxy)
	);
	if (!result.ok) error(result.status, result.message);
	redirect(303, result.location);
}

export const actions: Actions = {
	authorize: (event) => decide(event, 'authorize'),
	deny: (event) => decide(event, 'deny')
};
