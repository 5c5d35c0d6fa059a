import { redirect } from '@sveltejs/kit';
import { answerCallback } from '$lib/server/callback-route';
import type { RequestHandler } from './$types';

/** The redirect target: the flow whose state came back goes on, then back to its page (which drops the code from the address bar). */
export const GET: RequestHandler = async ({ url, cookies, request, locals }) => {
	const answer = await answerCallback(url, cookies, request.headers, locals.app);
	if ('response' in answer) return answer.response;
	redirect(303, answer.redirect);
};
