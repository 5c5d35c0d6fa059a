/**
 * Other services' rate-limit headers through the built playground: tokens from the sandbox, then
 * the API base moved to a loopback look-alike (tests/helpers/scripted-service.ts) that answers
 * with GitHub's and Feedly's headers in their published forms, and with a shape the meters do not
 * know. The exchanges come back in the action's answer with their headers as received; read into
 * meters (exchange/rate-limit-headers.ts) and put in words (ui/rate-limit-words.ts) they say what
 * the page's meter says: GitHub's epoch reset and Feedly's seconds both right, and no meter for
 * the unknown shape.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import { startScriptedService, type ScriptedService } from '../helpers/scripted-service';
import { budgetOf } from '../../src/lib/exchange/rate-limit-headers';
import {
	budgetWarnings,
	clockWords,
	latestMeters,
	meterWords
} from '../../src/lib/ui/rate-limit-words';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let lookalike: ScriptedService;

beforeAll(async () => {
	srv = await startServer({}, await freePort());
	lookalike = await startScriptedService();
});
afterAll(async () => {
	await srv?.stop();
	await lookalike?.close();
});
beforeEach(() => lookalike.reset());

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];

/** Sandbox tokens, then the base URL at the look-alike, the tokens kept for it. */
async function withTokensAtLookalike(): Promise<Client> {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	const location = await decide(c, consentUrlFrom(await c.page()));
	await c.fetch(location);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	const saved = await c.action('setup', {
		base_url: lookalike.url,
		client_id: 'sandbox-rw',
		client_secret: '',
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: `${srv.url}/sandbox/oauth2/auth`,
		token_endpoint: `${srv.url}/sandbox/oauth2/token`,
		auto_exchange: 'true',
		keep_tokens_for: JSON.stringify([lookalike.url])
	});
	expect(saved.type).toBe('success');
	return c;
}

/** When the exchange's answer came, ms: the moment its meter counts from. */
const receivedAt = (ex: Exchange) => Date.parse(ex.startedAt) + ex.timing.total;
/** "HH:MM" of a moment, in UTC, as plain Date arithmetic has it. */
/**
 * A reset as the meter says it in UTC, from the answer's time `at`: "HH:MM" the same day, with the
 * date before it on another (a reset hours away may fall after midnight; clockWords' own rule is
 * unit-tested).
 */
const hhmm = (ms: number, at: number) => {
	const time = new Date(ms).toISOString().slice(11, 16);
	if (new Date(ms).toISOString().slice(0, 10) === new Date(at).toISOString().slice(0, 10))
		return time;
	const [, day, month, year] = new Date(ms).toUTCString().match(/^\w+, (\d+) (\w+) (\d+)/)!;
	const sameYear = new Date(ms).getUTCFullYear() === new Date(at).getUTCFullYear();
	return `${Number(day)} ${month}${sameYear ? '' : ` ${year}`} ${time}`;
};
const utc = clockWords('UTC');
const json = ['Content-Type', 'application/json; charset=utf-8'] as [string, string];

test("GitHub's headers: 56 of 60 left, the epoch reset read against the answer's Date (20 min 47 s on)", async () => {
	const c = await withTokensAtLookalike();
	// docs.github.com, REST API "Rate limiting": the answer to `curl -I
	// https://api.github.com/users/octocat`, its Date and its epoch reset as published, the reset
	// 1,247 s after that Date; today's names are lower case, with -used and -resource.
	lookalike.answer({
		headers: [
			json,
			['Date', 'Mon, 01 Jul 2013 17:27:06 GMT'],
			['x-ratelimit-limit', '60'],
			['x-ratelimit-remaining', '56'],
			['x-ratelimit-reset', '1372700873'],
			['x-ratelimit-used', '4'],
			['x-ratelimit-resource', 'core']
		],
		body: '{"login":"octocat"}'
	});
	const [ex] = exchanges(await c.action('api', { method: 'GET', path: 'users/octocat' }));
	expect(lookalike.unscripted).toEqual([]);
	expect(ex!.response!.headers).toContainEqual(['x-ratelimit-reset', '1372700873']);
	const [meter, ...more] = budgetOf(ex!)!.meters;
	expect(more).toEqual([]);
	const at = receivedAt(ex!);
	expect(meter).toMatchObject({ label: 'Requests (core)', limit: 60, used: 4, left: 56 });
	// Within the float's rounding of a time in ms with a fraction.
	expect(meter!.resetAt! - at).toBeCloseTo(1247_000, 0);
	expect(meterWords(meter!, at, utc)).toBe(
		`56 of 60 left, resets at ${hhmm(at + 1247_000, at)} (in 20 min)`
	);
});

test("Feedly's headers: 57 used and no limit, the reset 23,841 s after the answer", async () => {
	const c = await withTokensAtLookalike();
	// developers.feedly.com/reference/request-limits: "X-Ratelimit-Count: 57, X-Ratelimit-Reset:
	// 23841", the counter resetting "in 6 hours, 37 minutes, and 21 seconds".
	lookalike.answer({
		headers: [json, ['X-Ratelimit-Count', '57'], ['X-Ratelimit-Reset', '23841']],
		body: '{"id":"user/c805fcbf-3acf-4302-a97e-d82f9d7c897f"}'
	});
	const [ex] = exchanges(await c.action('userinfo'));
	expect(ex!.step).toBe('userinfo');
	expect(lookalike.received.map((r) => r.url)).toEqual(['/reader/api/0/user-info']);
	const [meter, ...more] = budgetOf(ex!)!.meters;
	expect(more).toEqual([]);
	const at = receivedAt(ex!);
	expect(meter).toMatchObject({ limit: undefined, used: 57, left: undefined });
	expect(meter!.resetAt! - at).toBeCloseTo(23841_000, 0);
	expect(meterWords(meter!, at, utc)).toBe(
		`57 used, resets at ${hhmm(at + 23841_000, at)} (in 6 h 37 min)`
	);
	// A count with no limit is never "nearly spent".
	expect(budgetWarnings(latestMeters([ex!]), 1, at, utc)).toEqual([]);
});

test('nearly spent at a look-alike: the next call in any zone is warned of, until the reset', async () => {
	const c = await withTokensAtLookalike();
	const reset = Math.floor(Date.now() / 1000) + 600;
	lookalike.answer({
		headers: [
			json,
			['X-RateLimit-Limit', '60'],
			['X-RateLimit-Remaining', '1'],
			['X-RateLimit-Reset', String(reset)]
		],
		body: '{}'
	});
	const [ex] = exchanges(
		await c.action('api', { method: 'POST', path: 'edit-tag', body_kind: 'form', body: 'a=1' })
	);
	const at = receivedAt(ex!);
	// The reset in the server's clock, taken against its Date (whole seconds): within a second of it.
	const { resetAt } = budgetOf(ex!)!.meters[0]!;
	expect(Math.abs(resetAt! - reset * 1000)).toBeLessThan(1000);
	expect(budgetWarnings(latestMeters([ex!]), 2, at, utc).map((w) => w.said)).toEqual([
		`Requests: nearly spent, 1 of 60 left, resets at ${hhmm(resetAt!, at)}.`
	]);
	expect(budgetWarnings(latestMeters([ex!]), 1, at, utc)).toHaveLength(1);
	expect(budgetWarnings(latestMeters([ex!]), 1, resetAt!, utc)).toEqual([]);
});

test('a shape the meters do not know: its headers as received, and no meter', async () => {
	const c = await withTokensAtLookalike();
	// Kong's rate-limiting plugin (docs.konghq.com): the window in the header names.
	lookalike.answer({
		headers: [json, ['X-RateLimit-Limit-Minute', '5'], ['X-RateLimit-Remaining-Minute', '4']],
		body: '{}'
	});
	const [ex] = exchanges(await c.action('api', { method: 'GET', path: 'subscription/list' }));
	expect(ex!.response!.headers).toContainEqual(['X-RateLimit-Remaining-Minute', '4']);
	expect(budgetOf(ex!)).toBeUndefined();
});
