/**
 * One exchange as a Node fetch snippet ("Copy as Node fetch"): an ES module for Node 18 or newer
 * that sends the recorded request again and prints the answer.
 *
 * - The client secret comes from `process.env.CLIENT_SECRET`, tokens from `ACCESS_TOKEN` and
 *   `REFRESH_TOKEN`, the code of a code exchange from `CODE`: a missing one stops the snippet with
 *   its name. `Authorization: Basic <redacted>` is built from the client id and the secret, each
 *   form-encoded as RFC 6749 §2.3.1 requires. Other copies of tokens and codes are shortened unless
 *   `includeTokens`, which also gives the variables the recorded values as defaults.
 * - A form or query text keeps its recorded bytes; only the values from the environment are
 *   encoded into it. Host, Content-Length and Connection are left to fetch; redirects are not
 *   followed (`redirect: 'manual'`), as the playground does not follow them either.
 * - A step that spends something (spending.ts) runs only with `RUN_SPENDING_STEPS=1`.
 * - A token endpoint is called from a server, never from browser code: the snippet says so, since
 *   the secret must not reach a browser.
 */
import { REDACTED, collectTokens, redactTokens, scrubSecrets } from './redact';
import { RUN_SPENDING, SPENDS, SPEND_WHY, notResent, requestFields, spends } from './spending';
import { bearerToken, formDecode, isFormBody, placeholder, splitPair, splitUrl } from './text';
import { statusLine, type Exchange } from './types';
import { specOf, STEPS } from '$lib/steps/registry';
import type { Travels } from '$lib/steps/spec';

export interface NodeFetchOptions {
	/** Write tokens and codes in full (as the variables' defaults). Default: shortened. */
	includeTokens?: boolean;
}

type Env =
	'CLIENT_ID' | 'CLIENT_SECRET' | 'CODE' | 'CODE_VERIFIER' | 'ACCESS_TOKEN' | 'REFRESH_TOKEN';

const HELP: Record<Env, string> = {
	CLIENT_ID: 'the client id',
	CLIENT_SECRET: 'the client secret',
	CODE: 'a fresh authorization code',
	CODE_VERIFIER: 'the PKCE verifier of the consent request that CODE answers',
	ACCESS_TOKEN: 'an access token',
	REFRESH_TOKEN: 'a refresh token'
};

const lit = (s: string) => JSON.stringify(s);

/** A comment line can't be broken out of: control characters and line breaks become spaces. */
const comment = (text: string) => `// ${text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')}`;

interface Ctx {
	used: Set<Env>;
	defaults: Partial<Record<Env, string>>;
	includeTokens: boolean;
}

/** The JS expression of a variable's value. */
function envExpr(ctx: Ctx, v: Env): string {
	ctx.used.add(v);
	const d = ctx.includeTokens ? ctx.defaults[v] : undefined;
	return d ? `env(${lit(v)}, ${lit(d)})` : `env(${lit(v)})`;
}

/** The environment variable a decoded form value stands for, if any. */
function fieldEnv(name: string, value: string, codeGrant: boolean): Env | undefined {
	if (value === REDACTED) return 'CLIENT_SECRET';
	if (!value || (placeholder(value) && value !== REDACTED)) return undefined;
	if (name === 'access_token') return 'ACCESS_TOKEN';
	if (name === 'refresh_token') return 'REFRESH_TOKEN';
	if (name === 'code' && codeGrant) return 'CODE';
	if (name === 'code_verifier' && codeGrant) return 'CODE_VERIFIER';
	return undefined;
}

/** Form text as a JS expression: recorded pieces as they were, values from the environment encoded. */
function formExpr(ctx: Ctx, text: string, codeGrant: boolean): string {
	const parts: string[] = [];
	let literal = '';
	text.split('&').forEach((piece, i) => {
		const sep = i === 0 ? '' : '&';
		const [rawName, rawValue] = splitPair(piece);
		const env = piece.includes('=')
			? fieldEnv(formDecode(rawName), formDecode(rawValue), codeGrant)
			: undefined;
		if (!env) {
			literal += sep + piece;
			return;
		}
		parts.push(lit(`${literal}${sep}${rawName}=`), `form(${envExpr(ctx, env)})`);
		literal = '';
	});
	if (literal || parts.length === 0) parts.push(lit(literal));
	return parts.join(' + ');
}

/** Any other text: `<redacted>` becomes the secret (JSON-escaped in a JSON body). */
function textExpr(ctx: Ctx, text: string, json: boolean): string {
	const pieces = text.split(REDACTED);
	if (pieces.length === 1) return lit(text);
	const secret = envExpr(ctx, 'CLIENT_SECRET');
	const value = json ? `JSON.stringify(${secret}).slice(1, -1)` : secret;
	return pieces.map(lit).join(` + ${value} + `);
}

function urlExpr(ctx: Ctx, url: string, codeGrant: boolean): string {
	const u = splitUrl(url);
	if (u.query === undefined) return textExpr(ctx, url, false);
	const q = formExpr(ctx, u.query, codeGrant);
	return [lit(`${u.base}?`), q, ...(u.hash ? [lit(u.hash)] : [])].join(' + ');
}

const SKIP = new Set(['host', 'content-length', 'connection']);

/** The tokens this exchange carries or brought back, for the defaults of `includeTokens`. */
function recorded(ex: Exchange): Partial<Record<Env, string>> {
	const out: Partial<Record<Env, string>> = {};
	for (const [n, v] of ex.request.headers) {
		const bearer = n.toLowerCase() === 'authorization' ? bearerToken(v) : undefined;
		if (bearer) out.ACCESS_TOKEN = bearer.token;
	}
	const f = requestFields(ex.request);
	if (f.get('access_token')) out.ACCESS_TOKEN = f.get('access_token');
	if (f.get('refresh_token')) out.REFRESH_TOKEN = f.get('refresh_token');
	return out;
}

function title(ex: Exchange): string {
	const status = ex.response
		? statusLine(ex.response)
		: ex.failure
			? `failed (${ex.failure.kind})`
			: 'no response recorded';
	return `${STEPS[ex.step].title}: ${ex.request.method} ${ex.request.url} → ${status}`;
}

/** Why a request the playground server did not send is shown, not sent: by how it travelled. */
const SHOWN_ONLY: Record<Exclude<Travels, 'server'>, string> = {
	navigation:
		'Open this URL in a browser: the service shows its consent page to a person, so this is not a fetch call.',
	'redirect-back':
		'The service sent the browser back to the playground at this URL; it is shown for the record.'
};

/** One exchange as a Node ≥ 18 ES module that sends it again with fetch. */
export function toNodeFetch(original: Exchange, opts: NodeFetchOptions = {}): string {
	const includeTokens = !!opts.includeTokens;
	const clean = scrubSecrets(original);
	const ex = includeTokens ? clean : redactTokens(clean, collectTokens([clean]));
	const ctx: Ctx = { used: new Set(), defaults: recorded(clean), includeTokens };
	const head = [comment(title(ex))];
	if (ex.note) head.push(comment(ex.note));

	const spec = specOf(ex.step);
	const only =
		(spec.travels !== 'server' ? SHOWN_ONLY[spec.travels] : spec.exportsShowOnly) ??
		notResent(clean);
	if (only) {
		head.push(comment(only), `console.log(${lit(ex.request.url)});`);
		return head.join('\n') + '\n';
	}

	const spend = spends(clean);
	const codeGrant = spend === 'code';
	const url = urlExpr(ctx, ex.request.url, codeGrant);
	const headers: string[] = [];
	// Tokens are found in the exchange before shortening; redactTokens keeps the headers in order.
	ex.request.headers.forEach(([name, value], i) => {
		const lower = name.toLowerCase();
		if (SKIP.has(lower)) return;
		if (lower === 'cookie' && placeholder(value)) return;
		let v: string;
		const bearer = bearerToken(clean.request.headers[i]?.[1] ?? '');
		if (lower === 'authorization' && /^\s*basic\s+<redacted>\s*$/i.test(value)) {
			const id = requestFields(clean.request).get('client_id');
			const idExpr = id ? lit(id) : envExpr(ctx, 'CLIENT_ID');
			v = `'Basic ' + Buffer.from(\`\${form(${idExpr})}:\${form(${envExpr(ctx, 'CLIENT_SECRET')})}\`).toString('base64')`;
		} else if (lower === 'authorization' && bearer)
			v = `${lit(bearer.lead)} + ${envExpr(ctx, 'ACCESS_TOKEN')}`;
		else v = textExpr(ctx, value, false);
		headers.push(`\t\t[${lit(name)}, ${v}]`);
	});
	const body = ex.request.body;
	const form = isFormBody(ex.request.headers, body);
	const bodyExpr = !body
		? undefined
		: form
			? formExpr(ctx, body, codeGrant)
			: textExpr(ctx, body, /^\s*[[{]/.test(body));

	head.push(
		comment('Node 18 or newer, as an ES module: save it as request.mjs, then run'),
		comment(
			`  ${[...(spend ? [`${RUN_SPENDING}=1`] : []), ...[...ctx.used].map((v) => `${v}='…'`), 'node request.mjs'].join(' ')}`
		),
		comment(
			'A token endpoint is called from a server, never from browser code: the client secret (and the tokens it answers with) must not reach a browser.'
		)
	);
	if (includeTokens && Object.keys(ctx.defaults).length)
		head.push(comment('It holds full tokens as defaults: keep it private.'));
	const lines = [...head];
	if (spend)
		lines.push(
			comment(
				`This step spends something (${SPENDS[spend]}): it runs only with ${RUN_SPENDING}=1.`
			),
			`if (process.env.${RUN_SPENDING} !== '1') {`,
			`\tconsole.log(${lit(`Skipped: ${SPENDS[spend]}. ${SPEND_WHY} Set ${RUN_SPENDING}=1 to run it.`)});`,
			'\tprocess.exit(0);',
			'}'
		);
	if (ctx.used.size)
		lines.push(
			'const env = (name, fallback) => {',
			'\tconst value = process.env[name] || fallback;',
			`\tif (!value) throw new Error(\`Set \${name} first: \${${JSON.stringify(Object.fromEntries([...ctx.used].map((v) => [v, HELP[v]])))}[name]}.\`);`,
			'\treturn value;',
			'};'
		);
	if (/\bform\(/.test(`${url}\n${headers.join('\n')}\n${bodyExpr ?? ''}`))
		lines.push(
			comment(
				'Form encoding (and, for HTTP Basic, RFC 6749 §2.3.1): every byte but A-Z a-z 0-9 - . _ ~ as %XX.'
			),
			"const form = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());"
		);
	if (ex.failure) lines.push(comment(`This request failed: ${ex.failure.message}`));
	lines.push(
		`const res = await fetch(${url}, {`,
		`\tmethod: ${lit(ex.request.method)},`,
		...(headers.length ? ['\theaders: [', headers.join(',\n'), '\t],'] : []),
		...(bodyExpr ? [`\tbody: ${bodyExpr},`] : []),
		"\tredirect: 'manual'",
		'});',
		'console.log(`${res.status} ${res.statusText}`);',
		'for (const [name, value] of res.headers) console.log(`${name}: ${value}`);',
		'console.log(`\\n${await res.text()}`);'
	);
	return lines.join('\n') + '\n';
}
