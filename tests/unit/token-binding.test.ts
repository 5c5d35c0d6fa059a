/**
 * Tokens bound to their API (oauth/token-binding.ts): the origins recorded at issue, what a save
 * may move without a question, what a yes confirms, what the issuer's verified metadata vouches
 * for, and the check before the access token is sent. Then the save rule itself (server/flow/tokens.ts).
 */
import { describe, expect, test } from 'vitest';
import {
	bindTokens,
	confirmedMoves,
	metadataOrigins,
	movedOrigins,
	rebindTokens,
	tokenDestinations,
	tokenMayGo,
	tokenMoves,
	tokenQuestion,
	tokensDroppedMessage,
	vouchedOrigins,
	vouchFor
} from '$lib/oauth/token-binding';
import { setupWith, type Setup } from '$lib/oauth/setup';
import { tokensAfterSave } from '$lib/server/flow/tokens';
import type { Session } from '$lib/server/session/session';
import type { TokenSet } from '$lib/oauth/token-set';

const BASE = 'https://reader.test';
const EVIL = 'https://evil.test';

const setup = (over: Partial<Setup> = {}): Setup =>
	setupWith({ base_url: BASE, redirect_uri: 'http://127.0.0.1:5173/callback', ...over });

describe('what tokens are bound to', () => {
	test('the origins of the API base and of the user-info endpoint, once each', () => {
		expect(tokenDestinations(setup({ userinfo_endpoint: 'https://id.reader.test/me' }))).toEqual([
			{ key: 'api', label: 'API', origin: BASE },
			{ key: 'userinfo_endpoint', label: 'user-info endpoint', origin: 'https://id.reader.test' }
		]);
		expect(bindTokens(setup({ issuer: BASE }))).toEqual({
			origins: [BASE],
			issuer: BASE,
			token_endpoint: `${BASE}/oauth2/token`
		});
	});

	test('a path, a port or a trailing slash of the same origin moves nothing', () => {
		const b = bindTokens(setup());
		expect(tokenMoves(b, setup({ base_url: `${BASE}/other/` }))).toEqual([]);
		expect(tokenMoves(b, setup({ userinfo_endpoint: `${BASE}:443/me` }))).toEqual([]);
	});

	test('token theft by a moved user-info endpoint: the move is named', () => {
		const moves = tokenMoves(bindTokens(setup()), setup({ userinfo_endpoint: `${EVIL}/me` }));
		expect(moves).toEqual([
			{ key: 'userinfo_endpoint', label: 'user-info endpoint', origin: EVIL }
		]);
		expect(tokenQuestion(moves)).toBe(`Send this flow's tokens to ${EVIL}?`);
		expect(tokensDroppedMessage(moves)).toMatch(
			new RegExp(`^The tokens were dropped because the user-info endpoint moved to ${EVIL},`)
		);
	});

	test('token theft by a moved base URL: the API and the user-info endpoint both move, one origin to confirm', () => {
		const moves = tokenMoves(
			bindTokens(setup()),
			setup({ base_url: EVIL, token_endpoint: `${BASE}/oauth2/token` })
		);
		expect(moves.map((d) => d.key)).toEqual(['api', 'userinfo_endpoint']);
		expect(movedOrigins(moves)).toEqual([EVIL]);
		expect(tokensDroppedMessage(moves)).toContain(
			`the API moved to ${EVIL} and the user-info endpoint moved to ${EVIL}`
		);
	});

	test('no binding moves everything', () => {
		expect(tokenMoves(undefined, setup()).map((d) => d.origin)).toEqual([BASE, BASE]);
	});

	test('a yes confirms exactly the moved origins, no more and no fewer', () => {
		const moves = tokenMoves(bindTokens(setup()), setup({ userinfo_endpoint: `${EVIL}/me` }));
		expect(confirmedMoves(moves, [EVIL])).toBe(true);
		expect(confirmedMoves(moves, undefined)).toBe(false);
		expect(confirmedMoves(moves, [])).toBe(false);
		expect(confirmedMoves(moves, ['https://other.test'])).toBe(false);
		expect(confirmedMoves(moves, [EVIL, 'https://other.test'])).toBe(false);
		expect(confirmedMoves([], [])).toBe(false);
	});

	test('after a yes the tokens are bound to the new origins as well', () => {
		const b = rebindTokens(bindTokens(setup()), setup({ userinfo_endpoint: `${EVIL}/me` }));
		expect(b.origins).toEqual([BASE, EVIL]);
		expect(tokenMayGo(b, `${EVIL}/me`)).toEqual({ ok: true });
	});
});

describe('the check before sending', () => {
	test('the access token goes to a bound origin', () => {
		expect(tokenMayGo(bindTokens(setup()), `${BASE}/reader/api/0/user-info`)).toEqual({
			ok: true
		});
	});
	test.each([
		['another origin', `${EVIL}/reader/api/0/user-info`, /https:\/\/evil\.test is not an origin/],
		['another port', `${BASE}:8443/x`, /reader\.test:8443 is not an origin/],
		['another scheme', 'http://reader.test/x', /http:\/\/reader\.test is not an origin/],
		['no URL at all', 'not a url', /not a url is not an origin/]
	])('token theft to %s: refused, with the reason', (_what, url, message) => {
		const r = tokenMayGo(bindTokens(setup()), url);
		expect(r.ok).toBe(false);
		expect(!r.ok && r.message).toMatch(message);
	});
	test('tokens without a binding are never sent', () => {
		const r = tokenMayGo(undefined, `${BASE}/x`);
		expect(!r.ok && r.message).toMatch(/not bound to the API/);
	});
});

describe("the issuer's verified metadata", () => {
	const doc = {
		issuer: BASE,
		token_endpoint: `${BASE}/oauth2/token`,
		userinfo_endpoint: 'https://id.reader.test/me',
		jwks_uri: 'https://keys.reader.test/jwks'
	};
	test('names the origins of its issuer and every endpoint it lists', () => {
		expect(metadataOrigins(doc)).toEqual([
			BASE,
			'https://id.reader.test',
			'https://keys.reader.test'
		]);
	});
	test('vouches for tokens bound to its issuer, and only while the setup names that issuer', () => {
		const vouch = vouchFor(bindTokens(setup({ issuer: BASE })), {
			...doc,
			origins: metadataOrigins(doc)
		});
		expect(vouch).toEqual({ issuer: BASE, origins: metadataOrigins(doc) });
		expect(vouchedOrigins(vouch, BASE)).toEqual(metadataOrigins(doc));
		expect(vouchedOrigins(vouch, '')).toEqual([]);
		expect(vouchedOrigins(vouch, EVIL)).toEqual([]);
		expect(vouchedOrigins(null, BASE)).toEqual([]);
	});
	test("token theft by another host's metadata that claims the service's token endpoint: tokens issued with no issuer are vouched for by none", () => {
		// Verified only in that its issuer is the URL it was fetched for, which any host arranges.
		const claim = { issuer: EVIL, token_endpoint: `${BASE}/oauth2/token`, origins: [EVIL] };
		expect(vouchFor(bindTokens(setup()), claim)).toBeNull();
		expect(vouchFor(bindTokens(setup()), { ...claim, issuer: '' })).toBeNull();
		expect(vouchFor(bindTokens(setup({ issuer: BASE })), claim)).toBeNull();
	});
	test("an attacker's metadata vouches for nothing: another issuer and another token endpoint", () => {
		const evil = { issuer: EVIL, token_endpoint: `${EVIL}/token`, origins: [EVIL] };
		expect(vouchFor(bindTokens(setup({ issuer: BASE })), evil)).toBeNull();
		expect(vouchFor(bindTokens(setup()), evil)).toBeNull();
		expect(vouchFor(undefined, evil)).toBeNull();
		expect(vouchFor(bindTokens(setup({ issuer: BASE })), undefined)).toBeNull();
	});
	test('the issuer is compared as written: a trailing slash is another issuer', () => {
		const other = { issuer: `${BASE}/`, token_endpoint: '', origins: [EVIL] };
		expect(vouchFor(bindTokens(setup({ issuer: BASE })), other)).toBeNull();
	});
});

describe('a save', () => {
	const tokens = { access_token: 'at', token_type: 'Bearer' } as TokenSet;
	const held = (over: Partial<Session> = {}): Session => ({
		v: 1,
		setup: setup({ issuer: BASE }),
		tokens,
		tokens_for: bindTokens(setup({ issuer: BASE })),
		...over
	});

	test('that keeps the origins keeps the tokens', () => {
		const r = tokensAfterSave(held(), setup({ issuer: BASE, scope: 'read' }), undefined);
		expect(r.dropped).toBe(false);
		expect(r.fields.tokens).toBe(tokens);
	});

	test('token theft by a moved user-info endpoint, unconfirmed: the tokens are dropped, and why', () => {
		const r = tokensAfterSave(held(), setup({ userinfo_endpoint: `${EVIL}/me` }), undefined);
		expect(r.dropped).toBe(true);
		expect(r.fields).toMatchObject({ tokens: undefined, tokens_for: undefined });
		expect(r.fields.token_note).toContain(`the user-info endpoint moved to ${EVIL}`);
	});

	test('confirmed: the tokens stay, bound to the new origin too', () => {
		const r = tokensAfterSave(held(), setup({ userinfo_endpoint: `${EVIL}/me` }), [EVIL]);
		expect(r.dropped).toBe(false);
		expect(r.fields.tokens_for!.origins).toEqual([BASE, EVIL]);
	});

	test("an origin the issuer's verified metadata names needs no question", () => {
		const metadata_for = { issuer: BASE, token_endpoint: '', origins: ['https://id.reader.test'] };
		const moved = setup({ issuer: BASE, userinfo_endpoint: 'https://id.reader.test/me' });
		const r = tokensAfterSave(held({ metadata_for }), moved, undefined);
		expect(r.dropped).toBe(false);
		expect(r.fields.tokens_for!.origins).toContain('https://id.reader.test');
	});

	test('metadata of the issuer vouches only while the saved setup names that issuer', () => {
		const metadata_for = { issuer: BASE, token_endpoint: '', origins: [EVIL] };
		const r = tokensAfterSave(
			held({ metadata_for }),
			setup({ issuer: '', userinfo_endpoint: `${EVIL}/me` }),
			undefined
		);
		expect(r.dropped).toBe(true);
	});

	test("token theft by another host's metadata that names the service's token endpoint: tokens issued with no issuer, the move is not vouched for", () => {
		const metadata_for = {
			issuer: EVIL,
			token_endpoint: `${BASE}/oauth2/token`,
			origins: [EVIL, BASE]
		};
		const filled = setup({ issuer: EVIL, userinfo_endpoint: `${EVIL}/userinfo` });
		const r = tokensAfterSave(
			held({ setup: setup(), tokens_for: bindTokens(setup()), metadata_for }),
			filled,
			undefined
		);
		expect(r.dropped).toBe(true);
		expect(r.fields).toMatchObject({ tokens: undefined, tokens_for: undefined });
		expect(r.fields.token_note).toContain(`the user-info endpoint moved to ${EVIL}`);
		// A yes for exactly that origin still keeps them: the save asks, as for any other move.
		const yes = tokensAfterSave(
			held({ setup: setup(), tokens_for: bindTokens(setup()), metadata_for }),
			filled,
			[EVIL]
		);
		expect(yes.dropped).toBe(false);
		expect(yes.fields.tokens_for!.origins).toEqual([BASE, EVIL]);
	});

	test("token theft by another issuer's metadata: tokens bound to one issuer are not moved by another's", () => {
		const metadata_for = { issuer: EVIL, token_endpoint: `${BASE}/oauth2/token`, origins: [EVIL] };
		const r = tokensAfterSave(
			held({ metadata_for }),
			setup({ issuer: EVIL, userinfo_endpoint: `${EVIL}/userinfo` }),
			undefined
		);
		expect(r.dropped).toBe(true);
	});

	test('another client or token endpoint drops the tokens without Undo', () => {
		const r = tokensAfterSave(held(), setup({ client_id: 'other' }), undefined, true);
		expect(r).toEqual({
			fields: {
				tokens: undefined,
				token_values: undefined,
				tokens_for: undefined,
				token_note: undefined
			},
			dropped: false
		});
	});
});
