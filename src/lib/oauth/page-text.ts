/**
 * What a person sees of an HTML page: its title, its headings and its visible text, one block a
 * line. Attribute values (a hidden input's, a form's action, a link's address), scripts, styles,
 * templates, `<noscript>` and elements marked hidden are not seen, so they are not here: a login
 * page that carries the redirect_uri in a hidden input says nothing about it. The markup is read by
 * htmlparser2, which also decodes the character references. Pure.
 */
import { Parser } from 'htmlparser2';

export interface PageText {
	/** The `<title>`, its white space collapsed; '' when there is none. */
	title: string;
	/** The text of each `<h1>`–`<h6>`, in order. */
	headings: string[];
	/** The visible text of `<body>` (or of a fragment without one), a line per block. */
	text: string;
}

/** Elements whose content is never shown as text. */
const UNSEEN = new Set(['script', 'style', 'template', 'noscript', 'head', 'iframe', 'object']);

/** Elements that start a line of their own. */
const BLOCK =
	/^(address|article|aside|blockquote|br|dd|details|dialog|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|td|th|tr|ul)$/;

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether an element's attributes hide it: `hidden`, or a style of `display: none` or `visibility: hidden`. */
function hidden(attrs: Record<string, string>): boolean {
	if ('hidden' in attrs) return true;
	const style = (attrs.style ?? '').toLowerCase().replace(/\s+/g, '');
	return style.includes('display:none') || style.includes('visibility:hidden');
}

export function pageText(html: string): PageText {
	let title = '';
	const headings: string[] = [];
	const lines: string[] = [''];
	/** The open elements, each with whether it hides what it holds. */
	const open: { name: string; unseen: boolean }[] = [];
	let unseen = 0;
	let inTitle = false;
	let heading: string[] | undefined;
	const parser = new Parser(
		{
			onopentag(name, attrs) {
				const hides = UNSEEN.has(name) || hidden(attrs);
				open.push({ name, unseen: hides });
				if (hides) unseen++;
				if (name === 'title') inTitle = true;
				if (/^h[1-6]$/.test(name) && !unseen) heading = [];
				if (BLOCK.test(name)) lines.push('');
			},
			ontext(text) {
				if (inTitle) title += text;
				if (unseen) return;
				heading?.push(text);
				lines[lines.length - 1] += text;
			},
			onclosetag(name) {
				// htmlparser2 closes what a tag left open itself, so the last open element is this one.
				const el = open.pop();
				if (el?.unseen) unseen--;
				if (name === 'title') inTitle = false;
				if (/^h[1-6]$/.test(name) && heading) {
					headings.push(collapse(heading.join('')));
					heading = undefined;
				}
				if (BLOCK.test(name)) lines.push('');
			}
		},
		{ decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
	);
	parser.write(html);
	parser.end();
	return {
		title: collapse(title),
		headings: headings.filter(Boolean),
		text: lines.map(collapse).filter(Boolean).join('\n')
	};
}
