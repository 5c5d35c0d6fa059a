import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { ACTIONS, busyText, doneText, PAGE_ACTIONS } from '$lib/exchange/step-registry';
import {
	EXCHANGE_STEPS,
	harStep,
	specOf,
	STEP_ACTIONS,
	STEP_NAMES,
	STEPS
} from '$lib/steps/registry';
import { STEP_NUMBER } from '$lib/ui/sequence';
import { entrySchema } from '$lib/exchange/har/schema';

vi.mock('$env/dynamic/private', () => ({ env: {} }));

/** Every `.svelte` and `.ts` file under `dir`. */
function sources(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((f) => /\.(svelte|ts)$/.test(f))
		.map((f) => join(dir, f));
}

describe('the step registry', () => {
	// Its import is the whole server side's first in this worker: about a second alone, more beside
	// other suites, so it has the time the integration tests have.
	test(
		'the page server answers exactly the actions the registry names',
		{ timeout: 30_000 },
		async () => {
			const { actions } = await import('../../src/routes/+page.server');
			expect(Object.keys(actions).sort()).toEqual(Object.keys(ACTIONS).sort());
		}
	);

	test('every action a step form posts says what it is doing while it runs', () => {
		const posted = new Set<string>();
		for (const file of sources('src')) {
			for (const m of readFileSync(file, 'utf8').matchAll(/flow\.(?:submit|trigger)\('(\w+)'/g))
				posted.add(m[1]!);
		}
		// introspect and revoke share one component, which posts `step`.
		posted.add('introspect').add('revoke');
		expect(posted.size).toBeGreaterThan(10);
		for (const name of posted) expect(busyText(name), name).not.toBe('Working…');
		expect(busyText('no-such-action')).toBe('Working…');
	});

	test('the automatic steps say, with their card’s number, that they are done', () => {
		expect(doneText('exchange')).toBe(
			`Step ${STEPS.exchange.n}: the code was exchanged for tokens.`
		);
		expect(doneText('refresh')).toBe('Step 5: the access token was refreshed.');
		expect(doneText('userinfo')).toBe('Done.');
	});

	test('the actions are the step specs’ actions and the page’s own, no name twice', () => {
		const fromSpecs = STEP_NAMES.flatMap((s) => specOf(s).action?.name ?? []);
		expect(new Set(fromSpecs).size).toBe(fromSpecs.length);
		expect(Object.keys(STEP_ACTIONS).sort()).toEqual([...fromSpecs].sort());
		const own = Object.keys(PAGE_ACTIONS);
		expect(own.filter((name) => fromSpecs.includes(name))).toEqual([]);
		expect(Object.keys(ACTIONS).sort()).toEqual([...fromSpecs, ...own].sort());
		// Action names that are not their step's id.
		expect(specOf('discovery').action?.name).toBe('discover');
		expect(specOf('callback').action?.name).toBe('pasteback');
		expect(specOf('jwks').action?.name).toBe('jwt');
	});

	test('every action says what it says, whether a step’s or the page’s own', () => {
		// [busy, done] as the progress line and the live region say them.
		const said: Record<string, [string, string]> = {
			setup: ['Saving the setup…', 'Done.'],
			preset: ['Filling in the sandbox client…', 'Done.'],
			discover: ['Working…', 'Done.'],
			restart: ['Preparing a new consent request…', 'Done.'],
			check: ['Checking the consent URL with the service…', 'Done.'],
			secret: ['Checking the client secret with the service…', 'Done.'],
			par: ['Pushing the authorization request…', 'Done.'],
			pasteback: ['Reading the pasted address…', 'Done.'],
			exchange: ['Exchanging the code for tokens…', 'Step 3: the code was exchanged for tokens.'],
			userinfo: ['Reading the user info…', 'Done.'],
			refresh: ['Refreshing the access token…', 'Step 5: the access token was refreshed.'],
			api: ['Calling the API…', 'Done.'],
			jwt: ['Fetching the issuer’s keys and checking the signature…', 'Done.'],
			introspect: ['Asking the server about the token (introspection)…', 'Done.'],
			revoke: ['Revoking the token, then trying it once more…', 'Done.'],
			replay: ['Replaying the code in a fork of this flow…', 'Done.'],
			replayrefresh: ['Trying the previous refresh token in a fork of this flow…', 'Done.'],
			tworefreshes: ['Sending two refreshes at once in a fork of this flow…', 'Done.'],
			closefork: ['Closing the fork…', 'Done.'],
			takefork: [
				'Taking the fork’s newest tokens…',
				'The fork’s newest tokens are this flow’s now, and the fork is closed.'
			],
			forscript: ['Opening the consent page for the script…', 'Done.'],
			reset: ['Starting over…', 'Started over.'],
			undo: ['Bringing the flow back…', 'The flow is back as it was before Start over.'],
			fork: ['Working…', 'Done.']
		};
		expect(Object.keys(ACTIONS).sort()).toEqual(Object.keys(said).sort());
		for (const name of Object.keys(ACTIONS))
			expect([busyText(name), doneText(name)], name).toEqual(said[name]);
	});

	test('the cards are numbered 1 to 8 without a gap, in the order of the table', () => {
		const numbered = STEP_NAMES.filter((s) => STEPS[s].n !== undefined);
		expect(numbered.map((s) => STEPS[s].n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(numbered.every((s) => STEPS[s].heading)).toBe(true);
		expect(EXCHANGE_STEPS).toEqual([
			'exchange',
			'userinfo',
			'refresh',
			'api',
			'introspect',
			'revoke'
		]);
	});

	test('the diagram and the HAR import know every step the registry names, and no other', () => {
		expect(Object.keys(STEP_NUMBER).sort()).toEqual([...STEP_NAMES].sort());
		expect(STEP_NUMBER.refresh).toBe('5');
		expect(STEP_NUMBER.check).toBe('check');
		const entry = (step: string) =>
			entrySchema.parse({
				request: { method: 'GET', url: 'https://a.example/x', headers: [] },
				_step: step
			});
		for (const step of STEP_NAMES) expect(entry(step)._step).toBe(step);
		expect(entry('nonsense')._step).toBeUndefined();
	});
});

describe('the step specs', () => {
	test('each step is one spec, in the file named for it', () => {
		const specs = import.meta.glob<{ id: string }>('../../src/lib/steps/*-step.ts', {
			eager: true,
			import: 'spec'
		});
		const files = Object.keys(specs).map((f) => f.replace(/^.*\//, ''));
		expect(files.map((f) => f.slice(0, -'-step.ts'.length)).sort()).toEqual([...STEP_NAMES].sort());
		for (const [path, spec] of Object.entries(specs)) {
			expect(path.endsWith(`/${spec.id}-step.ts`), path).toBe(true);
			expect(specOf(spec.id as (typeof STEP_NAMES)[number]), path).toBe(spec);
		}
	});

	test('a HAR path two steps recognise is the step whose rule ranks first', () => {
		const ranks = STEP_NAMES.flatMap((s) => specOf(s).har?.rank ?? []);
		expect(new Set(ranks).size).toBe(ranks.length);
		const of = (path: string, body = '') =>
			harStep({ path, form: () => [...new URLSearchParams(body)] });
		// The metadata's /.well-known/ before revocation, introspection and the API.
		expect(of('/.well-known/revoke')).toBe('discovery');
		expect(of('/.well-known/x/reader/api/0/user-info')).toBe('discovery');
		// Revocation and introspection before the API's paths.
		expect(of('/reader/api/0/revoke')).toBe('revoke');
		expect(of('/reader/api/0/token/introspect')).toBe('introspect');
		// The refresh before the code exchange, which takes any other token request.
		expect(of('/oauth2/token', 'grant_type=refresh_token')).toBe('refresh');
		expect(of('/oauth2/token', 'grant_type=client_credentials')).toBe('exchange');
		// The consent page and the callback before the paths that contain them.
		expect(of('/.well-known/oauth2/auth')).toBe('consent');
		expect(of('/reader/api/0/callback')).toBe('callback');
		expect(of('/reader/api/0/user-info')).toBe('userinfo');
	});
});
