/**
 * How real authorization servers answer a consent URL (GET /authorize) whose redirect_uri is not
 * registered for the client, in their own words and shapes, and answers that mention redirect_uri
 * without refusing it. The wording is each server's, taken from its source code, its docs or an
 * issue that quotes the page (the `source` of each); the markup around it follows the server's
 * template where its source shows one, and is a plain page where only the words are public. Where
 * the status is not documented, 400 is used and the entry says so.
 *
 * `{uri}` in a body or a Location stands for the redirect URI the request sent, `{registered}` for
 * the registered one, `{origin}` for the server's own origin.
 */

export interface RefusalFixture {
	server: string;
	source: string;
	status: number;
	contentType?: string;
	body?: string;
	location?: string;
	/** What the diagnosis must find: certain (with the server's code), likely, or nothing. */
	expect: { strength: 'certain'; code: string } | { strength: 'likely'; words: string } | null;
}

const page = (title: string, body: string) =>
	`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const html = 'text/html; charset=utf-8';
const json = 'application/json';

export const POSITIVES: RefusalFixture[] = [
	{
		server: 'node oidc-provider (HTML)',
		source:
			'panva/node-oidc-provider lib/helpers/defaults.js (renderError), lib/helpers/errors.js (InvalidRedirectUri)',
		status: 400,
		contentType: html,
		body: page(
			'oops! something went wrong',
			`<div><h1>oops! something went wrong</h1><pre><strong>error</strong>: invalid_redirect_uri</pre><pre><strong>error_description</strong>: redirect_uri did not match any of the client&#39;s registered redirect_uris</pre><pre><strong>iss</strong>: {origin}</pre></div>`
		),
		expect: { strength: 'certain', code: 'invalid_redirect_uri' }
	},
	{
		server: 'node oidc-provider (JSON, Accept: application/json)',
		source: 'panva/node-oidc-provider lib/helpers/errors.js (InvalidRedirectUri)',
		status: 400,
		contentType: json,
		body: JSON.stringify({
			error: 'invalid_redirect_uri',
			error_description: "redirect_uri did not match any of the client's registered redirect_uris"
		}),
		expect: { strength: 'certain', code: 'invalid_redirect_uri' }
	},
	{
		server: 'the built-in sandbox (JSON)',
		source: "the service's API docs §4.1",
		status: 400,
		contentType: json,
		body: JSON.stringify({
			error: 'redirect_uri_mismatch',
			error_description: 'redirect_uri is not registered for this client'
		}),
		expect: { strength: 'certain', code: 'redirect_uri_mismatch' }
	},
	{
		server: 'Keycloak',
		source:
			'keycloak/keycloak themes/src/main/resources/theme/base/login/error.ftl and messages_en.properties (invalidParameterMessage); AuthorizationEndpointChecker.checkRedirectUri',
		status: 400,
		contentType: html,
		body: page(
			'Sign in to demo',
			`<div id="kc-header-wrapper">demo</div><h1 class="pf-v5-c-title" id="kc-page-title">We are sorry...</h1><div id="kc-error-message"><p class="instruction">Invalid parameter: redirect_uri</p></div>`
		),
		expect: { strength: 'likely', words: 'Invalid parameter: redirect_uri' }
	},
	{
		server: 'Google',
		source:
			'https://developers.google.com/identity/protocols/oauth2/web-server#authorization-errors-redirect-uri-mismatch; the page as quoted in zorn-v/nextcloud-social-login#384 (status not documented: 400, as the page says)',
		status: 400,
		contentType: html,
		body: page(
			'Sign in with Google',
			`<h1>Access blocked: This app’s request is invalid</h1><p>You can’t sign in because this app sent an invalid request. You can try again later, or contact the developer about this issue. <a href="https://support.google.com/accounts/answer/12379384">Learn more about this error</a></p><p>If you are a developer of this app, see <a href="#">error details</a>.</p><p>Error 400: redirect_uri_mismatch</p>`
		),
		expect: { strength: 'certain', code: 'redirect_uri_mismatch' }
	},
	{
		server: 'GitHub (a redirect to the registered callback)',
		source:
			'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors (Redirect URI mismatch)',
		status: 302,
		location:
			'{registered}?error=redirect_uri_mismatch&error_description=The+redirect_uri+MUST+match+the+registered+callback+URL+for+this+application.&error_uri=https%3A%2F%2Fdocs.github.com%2Fapps%2Fmanaging-oauth-apps%2Ftroubleshooting-authorization-request-errors%2F%23redirect-uri-mismatch&state=xyz',
		expect: { strength: 'certain', code: 'redirect_uri_mismatch' }
	},
	{
		server: 'Microsoft Entra ID',
		source:
			'https://learn.microsoft.com/en-us/troubleshoot/azure/active-directory/error-code-aadsts50011-redirect-uri-mismatch; the page as quoted in unoplatform/uno.todo#180 (status not documented: 400)',
		status: 400,
		contentType: html,
		body: page(
			'Sign in to your account',
			`<div>Sign in</div><div role="heading">Sorry, but we’re having trouble signing you in.</div><p>AADSTS50011: The redirect URI '{uri}' specified in the request does not match the redirect URIs configured for the application '919c40bb-e237-42f0-9056-5f60974e1e21'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal. Navigate to https://aka.ms/redirectUriMismatchError to learn more about how to fix this.</p>`
		),
		expect: { strength: 'certain', code: 'AADSTS50011' }
	},
	{
		server: 'Auth0',
		source:
			'https://support.auth0.com/center/s/article/Callback-URL-Mismatch-Error-Is-Not-in-the-List-of-Allowed-Callback-URLs; the markup as quoted in SimplQ/simplQ-backend#118 (status not documented: 400)',
		status: 400,
		contentType: html,
		body: page(
			'Error',
			`<h1>Oops!, something went wrong</h1><strong>Callback URL mismatch.<br>The provided redirect_uri is not in the list of allowed callback URLs.<br>Please go to the <a href="https://manage.auth0.com/#/applications/abc/settings">Application Settings page</a> and make sure you are sending a valid callback url from your application.</strong><p>TECHNICAL DETAILS: unauthorized_client: Callback URL mismatch. {uri} is not in the list of allowed callback URLs</p>`
		),
		expect: { strength: 'likely', words: 'Callback URL mismatch.' }
	},
	{
		server: 'Okta',
		source:
			'https://support.okta.com/help/s/article/okta-error-400-bad-request-the-redirect-uri-parameter-must-be-a-login-redirect-uri-in-the-client-app-settings; the page as quoted in oktadev/okta-node-express-typescript-react-example#12',
		status: 400,
		contentType: html,
		body: page(
			'dev-123 - Bad Request',
			`<h1>400</h1><h2>BAD REQUEST</h2><p>Your request resulted in an error.</p><a href="/">Go to Homepage</a><p>Identity Provider: Unknown</p><p>Error Code: invalid_request</p><p>Description: The 'redirect_uri' parameter must be a Login redirect URI in the client app settings: https://dev-123-admin.okta.com/admin/app/oidc_client/instance/0oa1#tab-general</p>`
		),
		expect: {
			strength: 'likely',
			words:
				"Description: The 'redirect_uri' parameter must be a Login redirect URI in the client app settings: https://dev-123-admin.okta.com/admin/app/oidc_client/instance/0oa1#tab-general"
		}
	},
	{
		server: 'Ory Hydra (a redirect to its own error page)',
		source:
			'ory/hydra oauth2/handler.go (writeAuthorizeError, forwardError); ory/fosite authorize_helper.go',
		status: 302,
		location:
			'{origin}/oauth2/fallbacks/error?error=invalid_request&error_description=The+request+is+missing+a+required+parameter%2C+includes+an+invalid+parameter+value%2C+includes+a+parameter+more+than+once%2C+or+is+otherwise+malformed.+The+%27redirect_uri%27+parameter+does+not+match+any+of+the+OAuth+2.0+Client%27s+pre-registered+redirect+urls.',
		expect: {
			strength: 'likely',
			words:
				"The 'redirect_uri' parameter does not match any of the OAuth 2.0 Client's pre-registered redirect urls."
		}
	},
	{
		server: 'Spring Authorization Server',
		source:
			'spring-projects/spring-authorization-server OAuth2AuthorizationCodeRequestAuthenticationValidator.java (validateRedirectUri), OAuth2AuthorizationEndpointFilter.java (sendErrorResponse); Spring Boot’s whitelabel page with the message shown',
		status: 400,
		contentType: html,
		body: `<html><body><h1>Whitelabel Error Page</h1><p>This application has no explicit mapping for /error, so you are seeing this as a fallback.</p><div id='created'>Fri Nov 27 12:00:00 UTC 2026</div><div>There was an unexpected error (type=Bad Request, status=400).</div><div>[invalid_request] OAuth 2.0 Parameter: redirect_uri</div></body></html>`,
		expect: { strength: 'likely', words: '[invalid_request] OAuth 2.0 Parameter: redirect_uri' }
	},
	{
		server: 'Dex',
		source:
			'dexidp/dex server/authflow/request.go ("Unregistered redirect_uri."), web/templates/error.html',
		status: 400,
		contentType: html,
		body: page(
			'dex',
			`<div class="theme-panel"><h2 class="theme-heading">Bad Request</h2><p>Unregistered redirect_uri.</p></div>`
		),
		expect: { strength: 'likely', words: 'Unregistered redirect_uri.' }
	},
	{
		server: 'GitLab (Doorkeeper)',
		source:
			'gitlabhq/gitlabhq app/views/doorkeeper/authorizations/error.html.haml, config/locales/doorkeeper.en.yml',
		status: 400,
		contentType: html,
		body: page(
			'GitLab',
			`<h3 class="page-title">An error has occurred</h3><pre>The redirect URI included is not valid.</pre>`
		),
		expect: { strength: 'likely', words: 'The redirect URI included is not valid.' }
	},
	{
		server: 'authentik',
		source:
			'goauthentik/authentik authentik/providers/oauth2/errors.py (RedirectUriError), authentik/core/templates/error/generic.html',
		status: 400,
		contentType: html,
		body: page(
			'Redirect URI Error',
			`<h1 class="pf-c-title pf-m-lg">Redirect URI Error</h1><div class="pf-c-empty-state__body"><h3>The request fails due to a missing, invalid, or mismatching redirection URI (redirect_uri).</h3></div><a href="/">Go to home</a>`
		),
		expect: {
			strength: 'likely',
			words:
				'The request fails due to a missing, invalid, or mismatching redirection URI (redirect_uri).'
		}
	},
	{
		server: 'Zitadel (JSON)',
		source: 'zitadel/oidc pkg/op/auth_request.go (checkURIAgainstRedirects); zitadel/zitadel#6955',
		status: 400,
		contentType: json,
		body: JSON.stringify({
			error: 'invalid_request',
			error_description:
				'The requested redirect_uri is missing in the client configuration. If you have any questions, you may contact the administrator of the application.'
		}),
		expect: {
			strength: 'likely',
			words: 'The requested redirect_uri is missing in the client configuration.'
		}
	},
	{
		server: 'Facebook Login',
		source:
			'the page as quoted in pennersr/django-allauth#1730 and zorn-v/nextcloud-social-login#136 (status not documented: 400)',
		status: 400,
		contentType: html,
		body: page(
			'Facebook',
			`<h2>URL Blocked</h2><p>This redirect failed because the redirect URI is not whitelisted in the app’s Client OAuth Settings. Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs.</p>`
		),
		expect: {
			strength: 'likely',
			words:
				'This redirect failed because the redirect URI is not whitelisted in the app’s Client OAuth Settings.'
		}
	},
	{
		server: 'Amazon Cognito (a redirect to its own error page)',
		source: 'aws/aws-aspnet-cognito-identity-provider#167; nextauthjs/next-auth#12125',
		status: 302,
		location: '{origin}/error?error=redirect_mismatch&client_id=abc',
		expect: { strength: 'certain', code: 'redirect_mismatch' }
	}
];

export const NEGATIVES: RefusalFixture[] = [
	{
		server: 'a login page carrying the redirect_uri in hidden inputs (Doorkeeper’s consent form)',
		source: 'doorkeeper-gem/doorkeeper app/views/doorkeeper/authorizations/new.html.erb',
		status: 200,
		contentType: html,
		body: page(
			'Sign in',
			`<h1>Authorization required</h1><p>Authorize Reader App to use your account?</p><form method="post" action="/oauth/authorize"><input type="hidden" name="redirect_uri" value="{uri}"><input type="hidden" name="client_id" value="abc"><input type="hidden" name="error" value="invalid redirect_uri mismatch"><button>Authorize</button></form><script>var redirect_uri = "{uri}"; // invalid, does not match</script>`
		),
		expect: null
	},
	{
		server: 'oidc-provider’s invalid_client page, echoing the redirect URI',
		source: 'panva/node-oidc-provider lib/actions/authorization/check_client.js',
		status: 400,
		contentType: html,
		body: page(
			'oops! something went wrong',
			`<h1>oops! something went wrong</h1><pre><strong>error</strong>: invalid_client</pre><pre><strong>error_description</strong>: client is invalid</pre><pre><strong>redirect_uri</strong>: {uri}</pre>`
		),
		expect: null
	},
	{
		server: 'an invalid_client JSON answer that names the redirect URI in passing',
		source: 'RFC 6749 §4.1.2.1',
		status: 400,
		contentType: json,
		body: JSON.stringify({
			error: 'invalid_client',
			error_description: 'Invalid client credentials for the request to redirect_uri {uri}'
		}),
		expect: null
	},
	{
		server: 'Keycloak: invalid_scope redirected back to the redirect URI',
		source:
			'keycloak/keycloak AuthorizationEndpoint (redirectErrorToClient after checkRedirectUri)',
		status: 302,
		location: '{uri}?error=invalid_scope&error_description=Invalid+scopes%3A+read+write&state=xyz',
		expect: null
	},
	{
		server: 'an access_denied redirected back to the redirect URI',
		source: 'RFC 6749 §4.1.2.1',
		status: 302,
		location:
			'{uri}?error=access_denied&error_description=The+redirect_uri+was+fine%2C+the+user+refused&state=xyz',
		expect: null
	},
	{
		server: 'Dex: an unknown client',
		source: 'dexidp/dex server/authflow/request.go ("Invalid client_id.")',
		status: 404,
		contentType: html,
		body: page('dex', `<h2 class="theme-heading">Not Found</h2><p>Invalid client_id.</p>`),
		expect: null
	},
	{
		server: 'a service failing with a 500',
		source: 'RFC 9110 §15.6.1',
		status: 500,
		contentType: json,
		body: JSON.stringify({ error: 'redirect_uri_mismatch' }),
		expect: null
	}
];

/** A fixture's body or Location with its placeholders filled in. */
export function fill(
	text: string,
	values: { uri: string; registered: string; origin: string }
): string {
	return text
		.replaceAll('{uri}', values.uri)
		.replaceAll('{registered}', values.registered)
		.replaceAll('{origin}', values.origin);
}
