/**
 * axe-core run in the page (through the debugging protocol, so the page's CSP stays on).
 *
 * Both kinds of axe result count: violations, and "needs review" (incomplete) results, which are
 * what axe reports when it finds something it cannot decide by itself (an aria-describedby that
 * points at nothing, a label whose id is not unique, ...). A needs-review result is a problem unless
 * it is one of the few ACCEPTED below, each accepted for its rule and the reason axe gives.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeProblem {
	id: string;
	/** 'violation', or 'needs review' for an incomplete result that is not accepted. */
	kind: 'violation' | 'needs review';
	impact: string | null;
	help: string;
	nodes: string[];
}

/**
 * Needs-review results that are not problems: rule id → the check's `messageKey`s that are accepted,
 * with the reason. Anything else axe cannot decide fails the run.
 */
export const ACCEPTED: Record<string, Record<string, string>> = {
	'color-contrast': {
		bgOverlap:
			"axe finds another element at the point where it samples the text and cannot tell what is behind it: the diagram's SVG labels drawn over its lane lines and boxes, and text in scrolling boxes (the transcript panel, code blocks, the consent URL) or below the fold.",
		imgNode:
			"the sequence diagram's labels are SVG text, which axe treats as an image and cannot measure.",
		nonBmp:
			'a symbol-only icon (aria-hidden, beside the words that say the same) has no text to measure.',
		emptyValue:
			"an empty input: axe asks for a value to measure; what is typed there is drawn in the page's own text colour on the field's background, the pairs the rest of the page is checked with.",
		shortTextContent:
			"a step's number in its round badge is one character, too short for axe to call it text; the badge is aria-hidden (the heading says the step's number), and its colours are the card's own pairs.",
		elmPartiallyObscuring:
			"the sticky bar under the header (the progress line, a docs link's reminder) lies over the page as it scrolls, so axe cannot tell what is behind it; its own background is the card's, opaque."
	},
	'aria-prohibited-attr': {
		noRoleSingular:
			'the focusable, scrollable code blocks (<pre tabindex="0">) are named with aria-label so a keyboard user hears what they are; axe cannot tell whether a screen reader announces a name on a <pre> without a role.'
	}
};

interface RawNode {
	target: string[];
	any: { id: string; data?: { messageKey?: string } | null; message: string }[];
	all: { id: string; data?: { messageKey?: string } | null; message: string }[];
	none: { id: string; data?: { messageKey?: string } | null; message: string }[];
}
interface RawResult {
	id: string;
	impact: string | null;
	help: string;
	nodes: RawNode[];
}

/** Why axe could not decide a node: the messageKeys of its undecided checks ('' when a check gives none). */
function reasons(node: RawNode): string[] {
	return [...node.any, ...node.all, ...node.none].map((c) => c.data?.messageKey ?? '');
}

/** A needs-review node is accepted when every reason axe gives for it is accepted for its rule. */
export function acceptedNode(rule: string, node: RawNode): boolean {
	const ok = ACCEPTED[rule];
	const why = reasons(node);
	return !!ok && why.length > 0 && why.every((r) => r !== '' && Object.hasOwn(ok, r));
}

/**
 * The rules that read colours: all that can differ between the light and the dark theme, which
 * change nothing but the colours `light-dark()` picks (src/app.css).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** An axe pass: the theme, and the rules it runs (all, only `rules`, or all but `except`). */
export interface AxePass {
	scheme: 'light' | 'dark';
	rules?: string[];
	except?: string[];
}

/**
 * The passes for a state checked at both widths. The dark theme changes nothing but the colours
 * (src/app.css), so its pass runs the rules that read them; no rule for a width sets a colour
 * (tests/unit/width-rules.test.ts), so the colours are measured once, on the phone, where the
 * transcript is part of the page rather than a scrolling panel axe cannot see behind, and the
 * desktop runs every other rule, on its own layout. The colour rules are about three quarters of
 * what axe costs on a page.
 */
export const PASSES: Record<'phone' | 'desktop' | 'colours', AxePass[]> = {
	phone: [{ scheme: 'light' }, { scheme: 'dark', rules: COLOUR_RULES }],
	desktop: [{ scheme: 'light', except: COLOUR_RULES }],
	/** The colour rules alone, in both themes: for a state that adds nothing but colours. */
	colours: [
		{ scheme: 'light', rules: COLOUR_RULES },
		{ scheme: 'dark', rules: COLOUR_RULES }
	]
};

/**
 * The problems axe finds in the passes of `PASSES[size]`, each labelled with its theme; the page is
 * left in the light theme.
 */
export async function axeAt(
	page: Page,
	size: keyof typeof PASSES,
	{ skip }: { skip?: string[] } = {}
): Promise<string[]> {
	const found: string[] = [];
	for (const { scheme, rules, except } of PASSES[size]) {
		await page.emulateMedia({ colorScheme: scheme });
		for (const v of await axeProblems(page, { rules, except, skip }))
			found.push(`${scheme}: ${v.kind} ${v.id} (${v.impact}) ${v.help} → ${v.nodes.join(' | ')}`);
	}
	await page.emulateMedia({ colorScheme: 'light' });
	return found;
}

/**
 * axe's problems on the page as it is: every rule, only those named in `rules`, or all but those
 * named in `except`; the elements `skip` selects are left out (the repeated blocks of a long body,
 * whose first blocks hold every kind of token its later ones do).
 */
export async function axeProblems(
	page: Page,
	{ rules, except, skip }: { rules?: string[]; except?: string[]; skip?: string[] } = {}
): Promise<AxeProblem[]> {
	// Once per document: a state checked in both themes parses the half-megabyte source once.
	if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${source}\n;0`);
	const r = await page.evaluate(
		async ({ rules, except, skip }) => {
			const w = window as unknown as {
				axe: {
					run: (
						ctx: Document | object,
						opts: object
					) => Promise<{ violations: RawResult[]; incomplete: RawResult[] }>;
				};
			};
			const context = skip?.length
				? { include: [['html']], exclude: skip.map((sel) => [sel]) }
				: document;
			const out = await w.axe.run(context, {
				resultTypes: ['violations', 'incomplete'],
				...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
				...(except
					? { rules: Object.fromEntries(except.map((id) => [id, { enabled: false }])) }
					: {})
			});
			return { violations: out.violations, incomplete: out.incomplete };
		},
		{ rules, except, skip }
	);
	const show = (nodes: RawNode[]) =>
		nodes.slice(0, 5).map((n) => {
			const why = [...n.any, ...n.all, ...n.none].map((c) => c.message).join('; ');
			return `${n.target.join(' ')}${why ? ` (${why})` : ''}`;
		});
	return [
		...r.violations.map((v) => ({
			id: v.id,
			kind: 'violation' as const,
			impact: v.impact,
			help: v.help,
			nodes: show(v.nodes)
		})),
		...r.incomplete
			.map((v) => ({ ...v, nodes: v.nodes.filter((n) => !acceptedNode(v.id, n)) }))
			.filter((v) => v.nodes.length > 0)
			.map((v) => ({
				id: v.id,
				kind: 'needs review' as const,
				impact: v.impact,
				help: v.help,
				nodes: show(v.nodes)
			}))
	];
}
