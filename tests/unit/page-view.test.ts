/**
 * echo: the page data (view() of page.ts) carries what came from the service or the wire only
 * through redaction: the token panel's set (also one sealed before redaction covered it), the
 * callback record and the consent request's Exchange.
 */
import { expect, test } from 'vitest';
import { setupWith } from '$lib/oauth/setup';
import type { Session } from '$lib/server/session/session';
import { testApp } from './test-app';
import { copiesIn } from '../helpers/copies';

/** The app serving the page (its presets and sandbox switch are in the page data). */
const app = testApp(6);

const { view } = await import('$lib/server/flow/page');

const SECRET = 'page-Secret+é 42';

test('echo: page data from a session holding the echoed secret shows <redacted> in tokens, callback and consent exchange', () => {
	const session: Session = {
		v: 1,
		client_secret: SECRET,
		setup: setupWith({
			base_url: 'https://svc.test',
			redirect_uri: 'http://127.0.0.1:5173/callback',
			client_id: 'app'
		}),
		pending: {
			state: 'st',
			consent_url: `https://svc.test/oauth2/auth?tenant=${encodeURIComponent(SECRET)}&state=st`,
			redirect_uri: 'http://127.0.0.1:5173/callback',
			scope: '',
			created_at: 1
		},
		callback: {
			params: [['echo', SECRET]],
			verdict: 'error',
			error: 'invalid_request',
			error_description: `bad secret ${SECRET}`,
			received_at: 1
		},
		tokens: {
			access_token: 'at-1',
			token_type: 'Bearer',
			obtained_at: 1,
			requested_scope: '',
			extra: { client_secret: SECRET, [SECRET]: btoa('app:x') }
		}
	};
	const data = view(app, session, 'http://127.0.0.1:5173');
	expect(data.tokens?.extra).toEqual({ client_secret: '<redacted>', '<redacted>': btoa('app:x') });
	expect(data.callback?.params).toEqual([['echo', '<redacted>']]);
	expect(data.pending?.exchange?.request.url).toBe(
		'https://svc.test/oauth2/auth?tenant=<redacted>&state=st'
	);
	const { pending, ...rest } = data;
	expect(copiesIn(SECRET, JSON.stringify({ ...rest, exchange: pending?.exchange }))).toEqual([]);
});
