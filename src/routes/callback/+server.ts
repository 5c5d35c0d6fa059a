import { redirect } from '@sveltejs/kit';
import { handleCallback } from '$lib/server/flow';
import { readSession, writeSession } from '$lib/server/session';
import type { RequestHandler } from './$types';

/** The redirect target: the state check, then back to the playground (which drops the code from the address bar). */
export const GET: RequestHandler = async ({ url, cookies, request }) => {
	const session = await readSession(cookies);
	const { session: next } = handleCallback(session, url, request.headers);
	await writeSession(cookies, next, url.protocol === 'https:');
	redirect(303, '/');
};
