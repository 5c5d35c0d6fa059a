/**
 * The two pages the playground answers outside SvelteKit (the host-name refusal, the unsolicited
 * redirect): plain HTML with nothing of the request in it but escaped text, readable at a phone's
 * width, with a small style of its own. Their Content-Security-Policy allows that one style by its
 * hash and nothing else (no script, no other source); the hook keeps a policy a response brings.
 */
import { createHash } from 'node:crypto';

const STYLE =
	'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;margin:0;padding:2rem 1rem;background:#f6f7f9;color:#1b1f24}' +
	'main{max-width:40rem;margin:0 auto;background:#fff;border:1px solid #d5d9de;border-radius:8px;padding:1.25rem 1.5rem}' +
	'h1{font-size:1.35rem;margin:0 0 .75rem}p{margin:.5rem 0}a{color:#1d4ed8}code{font-size:.95em}' +
	'@media (prefers-color-scheme:dark){body{background:#111418;color:#e6e8eb}main{background:#1a1e23;border-color:#333a42}a{color:#8ab4ff}}';

const PLAIN_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

export const escapeHtml = (text: string): string =>
	text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
	);

/** A page of `title` and paragraphs `body` (HTML, already escaped by the caller), with `status`. */
export function plainPage(status: number, title: string, body: string): Response {
	return new Response(
		`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
			`<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`,
		{
			status,
			headers: {
				'content-type': 'text/html; charset=utf-8',
				'content-security-policy': PLAIN_PAGE_CSP
			}
		}
	);
}
