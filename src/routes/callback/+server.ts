import { redirect } from '@sveltejs/kit';
import { answerCallback } from '$lib/server/steps/callback-route';
import { flowContext } from '$lib/server/flow/action';
import type { RequestHandler } from './$types';

/** The redirect target: the flow whose state came back goes on, then back to its page (which drops the code from the address bar). */
export const GET: RequestHandler = async (event) => {
	const { url, request } = event;
	const answer = await answerCallback(flowContext(event), url, request.headers);
	if ('response' in answer) return answer.response;
	redirect(303, answer.redirect);
};
