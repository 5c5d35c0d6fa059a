/**
 * The service's API docs: the published interface of the feed-reader service that the playground,
 * its diagnostics and its sandbox follow. Citations name a section ("the service's API docs §4.2",
 * "the service's API docs §5 step 3"); the in-app page at `API_DOCS_PATH` summarises each section
 * under the anchor `#section-4.2` (a step of §5: `#section-5-step-3`).
 */

/** How the product names the published interface, in pages, findings, comments and exports. */
export const API_DOCS = "the service's API docs";

/** The in-app summary of the service's API docs. */
export const API_DOCS_PATH = '/api-docs';

/** The sections of the service's API docs, in order, as the summary page lists them. */
export const API_DOCS_SECTIONS = [
	{ id: '1', title: 'What the service does' },
	{ id: '2', title: 'Resources' },
	{ id: '3', title: 'States and transitions' },
	{ id: '4', title: 'Endpoints' },
	{ id: '5', title: 'Authentication, step by step' },
	{ id: '6', title: 'Events' },
	{ id: '7', title: 'Errors' },
	{ id: '8', title: 'Limits' },
	{ id: '9', title: 'Versioning' }
] as const;

/** A citation: `apiDocs('§4.2')` is "the service's API docs §4.2". */
export function apiDocs(...sections: string[]): string {
	return `${API_DOCS} ${sections.join(', ')}`;
}

const SECTION = /§(\d+(?:\.\d+)?)(?: step (\d+))?/g;

/** The in-app address of a cited section: "§4.2" → "/api-docs#section-4.2", "§5 step 3" → "…#section-5-step-3". */
export function apiDocsHref(section: string): string {
	const m = /^§(\d+(?:\.\d+)?)(?: step (\d+))?$/.exec(section.trim());
	if (!m) return API_DOCS_PATH;
	return `${API_DOCS_PATH}#section-${m[1]}${m[2] ? `-step-${m[2]}` : ''}`;
}

export interface CitationPart {
	text: string;
	/** Set on a section of the service's API docs: where the in-app summary shows it. */
	href?: string;
}

// "the service's API docs" (either apostrophe) and the sections that follow it: "§4.2", "§4.2, §4.3",
// "§4.1 and §8", "§5 step 3".
const CITATION = /the service['’]s API docs((?:,? (?:and )?§\d+(?:\.\d+)?(?: step \d+)?)+)/g;

/**
 * Splits a text into plain parts and the sections of the service's API docs that it cites, so that a
 * view can link each section to the in-app summary. Joining the parts' texts gives the text back.
 */
export function citationParts(text: string): CitationPart[] {
	const parts: CitationPart[] = [];
	let last = 0;
	for (const m of text.matchAll(CITATION)) {
		// Never empty: the words "the service's API docs" come before the sections, and a separator
		// (", ", " and ") before each section.
		const sectionsStart = m.index + m[0].length - m[1]!.length;
		let at = sectionsStart;
		parts.push({ text: text.slice(last, at) });
		for (const s of m[1]!.matchAll(SECTION)) {
			const sStart = sectionsStart + s.index;
			parts.push({ text: text.slice(at, sStart) });
			parts.push({ text: s[0], href: apiDocsHref(s[0]) });
			at = sStart + s[0].length;
		}
		last = at;
	}
	const tail = text.slice(last);
	// The text after the last citation, if any; an empty text is one empty part.
	return tail || !parts.length ? [...parts, { text: tail }] : parts;
}

/**
 * Splits plain text on its inline code spans (`read write`, as in Markdown), so that a view shows
 * them as code, not as backticks. A lone backtick stays text. Joining the parts' texts, with each
 * code part back between backticks, gives the text back.
 */
export function codeParts(text: string): { text: string; code?: true }[] {
	return text
		.split(/`([^`\n]+)`/)
		.map((t, i) => (i % 2 ? { text: t, code: true as const } : { text: t }))
		.filter((p) => p.code || p.text);
}
