/**
 * A token endpoint that echoes the client secret it receives, in every encoding redaction covers
 * and in every place of its answer: the redirect back, the status line, response headers, the token
 * response's extra fields (as JSON, `\uXXXX` JSON, percent-encoding, base64 at each alignment,
 * HTTP Basic, hex, HTML character references with and without `;`, percent-encoding twice, JSON
 * inside a JSON string) and the user-info body. Listens on a loopback port; stop it with `close()`.
 */
import http from 'node:http';
import {
	b64,
	b64url,
	form,
	hex,
	htmlBare,
	htmlEscapeBare,
	htmlMixed,
	htmlRefs,
	json,
	jsonU,
	lowerHex,
	percentTwice,
	utf8
} from './copies';
import { listen } from './listen';

export interface EchoServer {
	url: string;
	close: () => Promise<void>;
}

/** Every encoded form of `secret` the echo sends, as header-safe ASCII. */
export function echoedForms(secret: string): Record<string, string> {
	const out: Record<string, string> = {
		percent_lower: lowerHex(encodeURIComponent(secret)),
		form: form(secret),
		basic: `Basic ${b64(utf8(`echo-app:${form(secret)}`))}`,
		hex: hex(secret, 'mixed'),
		html_decimal: htmlRefs(secret, 'decimal'),
		html_hex: htmlRefs(secret, 'zeros'),
		html_no_semicolon: htmlBare(secret, 'hex'),
		// Non-ASCII characters as references too, so that it can be a header's value.
		html_named_no_semicolon: htmlEscapeBare(secret).replace(
			/[^\x20-\x7e]/gu,
			(c) => `&#${c.codePointAt(0)};`
		),
		percent_twice: percentTwice(secret, true),
		json_in_json_u: json(jsonU(secret))
	};
	for (const pad of ['', 'x', 'xy']) {
		const whole = b64(utf8(`${pad}${secret}~tail`));
		out[`base64_${pad.length}`] = whole;
		out[`base64url_${pad.length}`] = b64url(whole).replace(/=+$/, '');
	}
	return out;
}

export async function startEchoServer(): Promise<EchoServer> {
	let last = '';
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			const u = new URL(req.url!, 'http://x');
			if (u.pathname === '/oauth2/auth') {
				const back = new URL(u.searchParams.get('redirect_uri')!);
				back.searchParams.set('code', 'echo-code');
				back.searchParams.set('state', u.searchParams.get('state')!);
				// The secret of the previous token request, echoed in the redirect back.
				if (last) back.searchParams.set('echo', last);
				res.writeHead(302, { location: back.toString() }).end();
				return;
			}
			if (u.pathname === '/oauth2/token') {
				const secret = new URLSearchParams(body).get('client_secret') ?? '';
				last = secret;
				const forms = echoedForms(secret);
				res.writeHead(200, `OK ${forms.percent_lower}`, {
					'content-type': 'application/json',
					'cache-control': 'no-store',
					...Object.fromEntries(Object.entries(forms).map(([k, v]) => [`x-echo-${k}`, v]))
				});
				res.end(
					`{"access_token":"echo-access-0123456789","token_type":"Bearer","expires_in":3600,` +
						`"refresh_token":"echo-refresh-0123456789","client_secret":${JSON.stringify(secret)},` +
						`"echo_u":"${jsonU(secret)}",` +
						`"echo_html":${JSON.stringify(htmlMixed(secret))},` +
						// JSON inside a JSON string: the secret JSON-escaped twice.
						`"echo_json_in_json":${JSON.stringify(JSON.stringify({ client_secret: secret }))},` +
						Object.entries(forms)
							.map(([k, v]) => `"echo_${k}":${JSON.stringify(v)}`)
							.join(',') +
						`,"nested":{"again":[${JSON.stringify(secret)}]}}`
				);
				return;
			}
			if (u.pathname === '/reader/api/0/user-info') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ userId: '7', userName: 'Echo', echo: last }));
				return;
			}
			res.writeHead(404).end();
		});
	});
	const { url } = await listen(server);
	return {
		url,
		close: () => new Promise<void>((ok) => server.close(() => ok()))
	};
}
