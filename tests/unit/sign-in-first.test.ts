/**
 * A sign-in asked for before the consent URL is judged, in the shapes real servers give it
 * (oauth/sign-in-first.ts): django-oauth-toolkit's redirect to its login URL with `next=`, an
 * express-oauth-server app's sign-in page, Keycloak's login page; and what is not one: oidc-provider's
 * redirect to its interaction, the sandbox's consent page, a consent page that asks for the
 * password again. Then the finding and the verdict line the registration check gets from it.
 */
import { describe, expect, test } from 'vitest';
import { signInPage, signInRedirect } from '$lib/oauth/sign-in-first';
import { diagnose } from '$lib/oauth/diagnose';
import { verdictOf } from '$lib/exchange/verdict';
import type { Exchange, HeaderList } from '$lib/exchange/types';

const AUTHORIZE = 'http://127.0.0.1:8000/o/authorize/?client_id=dot-nope&response_type=code';

/** django-oauth-toolkit 3: AuthorizationView is LoginRequiredMixin, so LOGIN_URL comes first. */
const DOT_LOGIN =
	'/accounts/login/?next=/o/authorize/%3Fclient_id%3Ddot-nope%26response_type%3Dcode';

/** An express-oauth-server app: the authorize route renders its sign-in form first. */
const EXPRESS_SIGN_IN = `<!DOCTYPE html><html><head><title>Login</title></head><body><h1>Login</h1><form method="post" action="/login?redirect=/oauth/authorize"><label>Username <input type="text" name="username"></label><label>Password <input type="password" name="password"></label><button type="submit">Login</button></form></body></html>`;

/** Keycloak's login page (login.ftl): "Sign in to your account", username and password. */
const KEYCLOAK_LOGIN = `<!DOCTYPE html><html><head><title>Sign in to reader</title></head><body><h1 id="kc-page-title">Sign in to your account</h1><form id="kc-form-login" action="/realms/reader/login-actions/authenticate?session_code=x" method="post"><input id="username" name="username" type="text"><input id="password" name="password" type="password"><input type="submit" value="Sign In"></form></body></html>`;

/** The sandbox's consent page: no password, consent words. */
const CONSENT = `<!DOCTYPE html><html><head><title>Authorize Reader App</title></head><body><h1>Authorize Reader App?</h1><p>Reader App asks for access to your account.</p><form method="post"><button>Authorize</button><button>Deny</button></form></body></html>`;

/** A consent page that asks for the password again before it grants (sudo mode). */
const CONSENT_WITH_PASSWORD = `<html><body><h1>Authorize Reader App</h1><p>Confirm your password to allow access.</p><input type="password" name="password"><button>Authorize</button></body></html>`;

describe('a sign-in asked for first', () => {
	test('a redirect to a sign-in address: its path says so, or its query carries the consent URL back', () => {
		expect(signInRedirect(DOT_LOGIN, AUTHORIZE)).toBe(true);
		expect(signInRedirect('https://id.example/u/login?state=x', AUTHORIZE)).toBe(true);
		expect(signInRedirect('/signin', AUTHORIZE)).toBe(true);
		expect(signInRedirect('/account?next=/o/authorize/%3Fx%3D1', AUTHORIZE)).toBe(true);
		// oidc-provider checks the client and the redirect URI before it sends the browser to its
		// interaction, and a link back to another page is no sign-in.
		expect(signInRedirect('/interaction/Ul2Wd3', AUTHORIZE)).toBe(false);
		expect(signInRedirect('/account?next=/home', AUTHORIZE)).toBe(false);
		expect(signInRedirect('/loginhelp/about', AUTHORIZE)).toBe(false);
		expect(signInRedirect('http://[bad', AUTHORIZE)).toBe(false);
	});

	test('the other spellings of a sign-in path and of the field that carries the consent URL back', () => {
		// GitLab's /users/sign_in (Devise), /sign-in, /log-in, /log_in, /logon, /log-on.
		for (const path of ['/users/sign_in', '/sign-in', '/log-in', '/log_in', '/logon', '/log-on'])
			expect(signInRedirect(path, AUTHORIZE), path).toBe(true);
		// Auth0's returnTo, GitHub's return_to; a field that only ends or starts like one is not one,
		// and a field that is none carries nothing back, whatever its value.
		const back = '/o/authorize/%3Fclient_id%3Ddot-nope';
		expect(signInRedirect(`/account?returnTo=${back}`, AUTHORIZE)).toBe(true);
		expect(signInRedirect(`/account?return_to=${back}`, AUTHORIZE)).toBe(true);
		for (const field of ['skip_next', 'nextpage', 'client'])
			expect(signInRedirect(`/account?${field}=${back}`, AUTHORIZE), field).toBe(false);
		// The consent URL's path is compared without its trailing slashes: a value without them, or a
		// consent URL written with two, is still the way back.
		expect(signInRedirect('/account?next=/o/authorize%3Fx%3D1', AUTHORIZE)).toBe(true);
		expect(
			signInRedirect(
				'/account?next=/o/authorize%3Fx%3D1',
				'http://127.0.0.1:8000/o/authorize//?x=1'
			)
		).toBe(true);
	});

	test('a password field however its type is written: spaced, or unquoted', () => {
		for (const input of [
			'<input type = "password" name="p">',
			'<input type= "password" name="p">',
			'<input type=password name=p>'
		])
			expect(
				signInPage(`<html><head><title>Sign in</title></head><body>${input}</body></html>`),
				input
			).toBe(true);
	});

	test('a page with a password field and no consent words', () => {
		expect(signInPage(EXPRESS_SIGN_IN)).toBe(true);
		expect(signInPage(KEYCLOAK_LOGIN)).toBe(true);
		expect(signInPage(CONSENT)).toBe(false);
		expect(signInPage(CONSENT_WITH_PASSWORD)).toBe(false);
		// The consent word only in the title, before a heading: read as a word of its own.
		expect(
			signInPage(
				'<html><head><title>Authorize</title></head><body><h1>Reader App</h1><input type="password"></body></html>'
			)
		).toBe(false);
		// In British spelling too, with no other consent word.
		expect(
			signInPage(
				'<html><body><h1>Authorise Reader App</h1><input type="password"><button>Authorise</button></body></html>'
			)
		).toBe(false);
		expect(signInPage('<html><body>Welcome</body></html>')).toBe(false);
	});
});

describe('the registration check says it judged nothing, in its finding and its verdict', () => {
	function checked(status: number, body = '', headers: HeaderList = []): Exchange {
		const ex: Exchange = {
			id: `check-${status}`,
			step: 'check',
			startedAt: '2026-12-06T10:00:00.000Z',
			request: { method: 'GET', url: AUTHORIZE, httpVersion: '1.1', headers: [], body: '' },
			response: { status, statusText: '', httpVersion: '1.1', headers, body, truncated: false },
			timing: { total: 3 },
			findings: []
		};
		ex.findings = diagnose(ex, { clientId: 'dot-nope', redirectUri: 'http://127.0.0.1:5173/cb' });
		return ex;
	}

	test('django-oauth-toolkit’s login redirect, an express sign-in page, Keycloak’s login page', () => {
		for (const ex of [
			checked(302, '', [['Location', DOT_LOGIN]]),
			checked(200, EXPRESS_SIGN_IN, [['Content-Type', 'text/html']]),
			checked(200, KEYCLOAK_LOGIN, [['Content-Type', 'text/html']])
		]) {
			expect(ex.findings.map((f) => [f.code, f.level])).toEqual([['sign-in-first', 'warning']]);
			expect(ex.findings[0]!.message).toMatch(
				/^Not judged yet: 127\.0\.0\.1:8000 asks the user to sign in first/
			);
			expect(ex.findings[0]!.fix).toMatch(/import it here/);
			expect(verdictOf([ex], Date.now())).toEqual({
				tone: 'neutral',
				text: 'Registration check: not judged yet: 127.0.0.1:8000 asks the user to sign in first, so this check cannot tell whether it accepts the client_id, the redirect_uri and the scope',
				target: 'consent'
			});
		}
	});

	test('a consent page, and oidc-provider’s interaction: accepted as before', () => {
		expect(checked(200, CONSENT).findings.map((f) => f.code)).toEqual(['registration-ok']);
		expect(
			checked(303, '', [['Location', '/interaction/Ul2Wd3']]).findings.map((f) => f.code)
		).toEqual(['registration-ok']);
	});
});
