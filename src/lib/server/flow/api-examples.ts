/**
 * What the API step offers to pick from. The service's API docs document one call below
 * `/reader/api/0/`, user-info (§4.4); the built-in sandbox answers a few more, Google-Reader style.
 * When the setup's API is the sandbox's, the step offers the sandbox's own examples (the app's
 * `apiExamples`, handed over by the composition root, with the demo account's real item ids) labelled as the sandbox's; for any other
 * service, user-info, and the sandbox's paths without their sandbox-only values, labelled as such.
 */
import { endpoints, type Setup } from '$lib/oauth/setup';

export interface ApiExample {
	method: 'GET' | 'POST';
	/** Below `/reader/api/0/`. */
	path: string;
	query: string;
	body: string;
	zone: 1 | 2;
	title: string;
}

export interface ApiSuggestions {
	/** The setup's API is the built-in sandbox's. */
	sandbox: boolean;
	/** What the list is, as its label says. */
	label: string;
	note: string;
	examples: ApiExample[];
	/** A form body that works for the first POST example (the body field's hint), or a neutral hint. */
	bodyHint: string;
}

/** What an app knows to suggest: whether its sandbox is on, and the sandbox's working examples. */
export interface ApiExamplesOf {
	presets: { sandboxEnabled: boolean };
	apiExamples: readonly ApiExample[];
}

const USER_INFO: ApiExample = {
	method: 'GET',
	path: 'user-info',
	query: '',
	body: '',
	zone: 1,
	title: "the current user (the service's API docs §4.4)"
};

/** Whether a setup's API is the built-in sandbox's, on this server's origin. */
function isSandboxApi(
	app: Pick<ApiExamplesOf, 'presets'>,
	setup: Setup | null | undefined,
	origin: string
): boolean {
	if (!setup || !app.presets.sandboxEnabled) return false;
	return endpoints(setup).api === `${origin}/sandbox/reader/api/0/`;
}

export function apiSuggestions(app: ApiExamplesOf, setup: Setup, origin: string): ApiSuggestions {
	const sandboxExamples = app.apiExamples;
	if (isSandboxApi(app, setup, origin)) {
		const post = sandboxExamples.find((e) => e.method === 'POST');
		return {
			sandbox: true,
			label: 'Endpoints of the built-in sandbox',
			note: "Only user-info is in the service's API docs §4.4; the others are the sandbox's, Google-Reader style. Item ids come from stream/items/ids.",
			examples: sandboxExamples.length ? [...sandboxExamples] : [USER_INFO],
			bodyHint: post?.body ?? ''
		};
	}
	// Another service: only the documented call with values; the sandbox's paths, without its ids.
	const seen = new Set<string>();
	const paths = sandboxExamples
		.filter((e) => e.path !== USER_INFO.path && !e.path.startsWith('stream/contents/'))
		.filter((e) => !seen.has(e.path) && !!seen.add(e.path))
		.map((e) => ({ ...e, query: '', body: '', title: 'a path of the built-in sandbox' }));
	return {
		sandbox: false,
		label: "Documented by the service's API docs, and paths of the built-in sandbox",
		note: "Only user-info is in the service's API docs §4.4. The other paths are the built-in sandbox's: this service may not have them, or may want other parameters.",
		examples: [USER_INFO, ...paths],
		bodyHint: 'form fields, as the service expects them'
	};
}
