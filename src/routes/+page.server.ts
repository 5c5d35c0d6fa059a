import { fail } from '@sveltejs/kit';
import { z } from 'zod';
import { callApi, checkRegistration, exchangeCode, pasteBack, refreshTokens } from '$lib/server/flow';
import { applyPreset, prefillFrom, restart, runStep, save, saveSetup, takeOutbox, view } from '$lib/server/page';
import { clearSession, readSession } from '$lib/server/session';
import type { Actions, PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ cookies, url }) => {
	const session = await readSession(cookies);
	const outbox = await takeOutbox(cookies, url, session);
	if (session.notice) await save(cookies, url, { v: 1 });
	return { ...view(session, url.origin), outbox, prefill: prefillFrom(url) };
};

const apiSchema = z.object({
	method: z.enum(['GET', 'POST'], { error: 'Method must be GET or POST' }),
	path: z
		.string()
		.trim()
		.min(1, 'Enter a path below /reader/api/0/')
		.max(500, 'Path is too long')
		.transform((p) => p.replace(/^\/?(reader\/api\/0\/)?/, ''))
		.refine((p) => /^[A-Za-z0-9._~!$&'()*+,;=:@%/-]+$/.test(p), 'The path may only hold URL path characters')
		.refine((p) => !/^[a-z][a-z0-9+.-]*:/i.test(p) && !p.startsWith('/'), 'The path must stay below /reader/api/0/, not name another site')
		.refine((p) => !p.split('/').some((seg) => seg === '..' || seg === '.' || /%2e%2e|%2f/i.test(seg)), 'The path must stay below /reader/api/0/'),
	query: z.string().max(4000, 'Query is too long').default(''),
	body: z.string().max(16_000, 'Body is too long').default('')
});

const pasteSchema = z.object({
	pasted: z.string().trim().min(1, 'Paste the address your application landed on').max(8192, 'That is too long for a redirect address (at most 8192 characters)')
});

export const actions: Actions = {
	check: ({ cookies, url, request }) => runStep(cookies, url, (s) => checkRegistration(s, request.signal)),
	pasteback: async ({ cookies, url, request }) => {
		const parsed = pasteSchema.safeParse({ pasted: (await request.formData()).get('pasted') ?? '' });
		if (!parsed.success) return fail(400, { message: parsed.error.issues[0]?.message ?? 'Invalid input' });
		return runStep(cookies, url, async (s) => pasteBack(s, parsed.data.pasted));
	},
	setup: ({ cookies, url, request }) => request.formData().then((f) => saveSetup(cookies, url, f)),
	preset: ({ cookies, url, request }) => request.formData().then((f) => applyPreset(cookies, url, f)),
	restart: ({ cookies, url }) => restart(cookies, url),
	exchange: ({ cookies, url, request }) => runStep(cookies, url, (s) => exchangeCode(s, request.signal)),
	refresh: async ({ cookies, url, request }) => {
		const auto = (await request.formData()).get('auto') === '1';
		return runStep(cookies, url, (s) => refreshTokens(s, auto ? 'Automatic refresh before expiry (the switch under the tokens).' : undefined, request.signal));
	},
	userinfo: ({ cookies, url, request }) => runStep(cookies, url, (s) => callApi(s, 'userinfo', undefined, request.signal)),
	api: async ({ cookies, url, request }) => {
		const form = await request.formData();
		const parsed = apiSchema.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')));
		if (!parsed.success) return fail(400, { message: parsed.error.issues[0]?.message ?? 'Invalid API call', field: String(parsed.error.issues[0]?.path[0] ?? '') });
		return runStep(cookies, url, (s) => callApi(s, 'api', parsed.data, request.signal));
	},
	reset: async ({ cookies }) => {
		clearSession(cookies);
		return { reset: true };
	}
};
