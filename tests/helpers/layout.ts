/**
 * Layout checks for narrow screens, run in the page: what runs off the viewport, and which tap
 * targets are too small. Each returns the offending elements by a short selector, so a failure says
 * what broke.
 */
import type { Page } from 'playwright-core';

/** An element that passes the viewport's right edge, or its parent's, outside any scroll box of its own. */
export interface Overflow {
	selector: string;
	right: number;
	/** The edge it passes: "viewport" (at innerWidth) or "parent" (the parent's right edge). */
	past: 'viewport' | 'parent';
	edge: number;
	text: string;
}

/** An interactive element smaller than the minimum tap target. */
export interface SmallTarget {
	selector: string;
	width: number;
	height: number;
	text: string;
}

/** The minimum tap target on a coarse pointer or a narrow viewport (WCAG 2.5.5, CSS px). */
export const MIN_TARGET = 44;

/**
 * Everything that runs off the page to the right. The page may not scroll sideways
 * (`documentElement.scrollWidth` ≤ `innerWidth`), and no visible element's right edge may pass the
 * viewport unless an ancestor scrolls it sideways (`overflow-x: auto | scroll`) or cuts it off on
 * purpose with an ellipsis; that ancestor is itself checked like any element, so its own box must
 * fit. Nor may an element stick out of its parent's box (text running past the edge of its card is
 * cut off or overlaps, even while the viewport still has room), unless the parent scrolls or
 * ellipsizes it; elements taken out of the flow (absolute, fixed) and the insides of an SVG are
 * judged by the viewport only.
 */
export async function overflowProblems(page: Page): Promise<Overflow[]> {
	// A mobile browser widens its layout viewport to fit what overflows, so innerWidth alone proves
	// nothing there: the width the page was given is the limit.
	const given = page.viewportSize()?.width ?? Infinity;
	return page.evaluate((given) => {
		const vw = Math.min(window.innerWidth, given);
		const part = (e: Element) => {
			const testid = e.getAttribute('data-testid');
			return (
				e.tagName.toLowerCase() +
				(e.id ? `#${e.id}` : '') +
				(testid ? `[data-testid="${testid}"]` : '') +
				[...e.classList]
					.filter((c) => !c.startsWith('svelte-'))
					.slice(0, 2)
					.map((c) => `.${c}`)
					.join('')
			);
		};
		const describe = (el: Element): string => {
			const parts: string[] = [];
			for (let e: Element | null = el; e && e !== document.body && parts.length < 4;) {
				parts.unshift(part(e));
				e = e.parentElement;
			}
			return parts.join(' > ');
		};
		/** A box that keeps what is inside it: it scrolls sideways, or ellipsizes on purpose. */
		const keeps = (a: Element): boolean => {
			const s = getComputedStyle(a);
			if (s.overflowX === 'auto' || s.overflowX === 'scroll') return true;
			return (s.overflowX === 'hidden' || s.overflowX === 'clip') && s.textOverflow === 'ellipsis';
		};
		const contained = (el: Element): boolean => {
			for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement)
				if (keeps(a)) return true;
			return false;
		};
		type Found = {
			selector: string;
			right: number;
			past: 'viewport' | 'parent';
			edge: number;
			text: string;
		};
		const found: Found[] = [];
		const root = document.documentElement;
		if (root.scrollWidth > vw || window.innerWidth > vw)
			found.push({
				selector: `html (scrollWidth ${root.scrollWidth}, innerWidth ${window.innerWidth})`,
				right: root.scrollWidth,
				past: 'viewport',
				edge: vw,
				text: ''
			});
		for (const el of document.body.querySelectorAll('*')) {
			if (found.length >= 20) break; // outermost first (document order): enough to see why
			if (!el.checkVisibility({ checkVisibilityCSS: true })) continue;
			const r = el.getBoundingClientRect();
			if (r.width <= 1 || r.height <= 1 || r.right <= 0) continue;
			const selector = describe(el);
			const text = (el.textContent ?? '').trim().slice(0, 60);
			if (r.right > vw + 0.5 && !contained(el)) {
				found.push({ selector, right: Math.round(r.right), past: 'viewport', edge: vw, text });
				continue;
			}
			// The parent that draws a box (display: contents draws none).
			let parent = el.parentElement;
			while (parent && getComputedStyle(parent).display === 'contents')
				parent = parent.parentElement;
			const position = getComputedStyle(el).position;
			if (
				!parent ||
				parent === document.body ||
				(el instanceof SVGElement && !(el instanceof SVGSVGElement)) ||
				position === 'absolute' ||
				position === 'fixed' ||
				keeps(parent)
			)
				continue;
			const pr = parent.getBoundingClientRect();
			if (r.right > pr.right + 1)
				found.push({
					selector,
					right: Math.round(r.right),
					past: 'parent',
					edge: Math.round(pr.right),
					text
				});
		}
		return found;
	}, given);
}

/**
 * Interactive elements smaller than 44 × 44 CSS px: buttons, links that look like buttons or stand
 * alone (in a nav, a list of actions), selects, text fields, summaries, checkboxes and radios (by the
 * label that wraps them, which is what a finger presses), and anything with role="button". Links
 * inside running text are exempt, as WCAG 2.5.8 allows.
 */
export async function smallTargets(page: Page, min = MIN_TARGET): Promise<SmallTarget[]> {
	return page.evaluate((min) => {
		const describe = (e: Element) =>
			e.tagName.toLowerCase() +
			(e.id ? `#${e.id}` : '') +
			[...e.classList]
				.filter((c) => !c.startsWith('svelte-'))
				.slice(0, 2)
				.map((c) => `.${c}`)
				.join('');
		const targets = new Set<Element>();
		const sel = [
			'button',
			'a.button',
			'nav a',
			'.actions a',
			'select',
			'summary',
			'[role="button"]',
			'input:not([type="hidden"])'
		].join(',');
		for (const el of document.querySelectorAll(sel)) {
			const input = el as HTMLInputElement;
			if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio'))
				targets.add(el.closest('label') ?? el);
			else if (el.tagName === 'INPUT' && el.closest('label.import'))
				targets.add(el.closest('label')!);
			else targets.add(el);
		}
		const found: { selector: string; width: number; height: number; text: string }[] = [];
		for (const el of targets) {
			if (!el.checkVisibility({ checkVisibilityCSS: true })) continue;
			if (el.closest('.sr-only, [aria-hidden="true"]')) continue;
			const r = el.getBoundingClientRect();
			if (r.width <= 1 && r.height <= 1) continue;
			if (r.right <= 0) continue; // the skip link, parked off-screen until it has focus
			if (r.width + 0.5 < min || r.height + 0.5 < min)
				found.push({
					selector: describe(el),
					width: Math.round(r.width),
					height: Math.round(r.height),
					text: (el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 40)
				});
		}
		return found;
	}, min);
}

/** A select narrower than its chosen option needs: what it shows is cut off. */
export interface ClippedSelect {
	selector: string;
	width: number;
	/** The width the same select takes, on its own, to show its chosen option whole. */
	needs: number;
	text: string;
}

/**
 * Visible selects that show their chosen option cut off. A select's own width is measured against
 * a copy of it, in the same place and styles, holding only that option at its natural width (what
 * the browser itself makes room for: the text, the padding and the arrow).
 */
export async function clippedSelects(page: Page): Promise<ClippedSelect[]> {
	return page.evaluate(() => {
		const found: ClippedSelect[] = [];
		for (const el of document.querySelectorAll('select')) {
			if (el.multiple || !el.checkVisibility({ checkVisibilityCSS: true })) continue;
			const chosen = el.selectedOptions[0];
			if (!chosen) continue;
			const copy = el.cloneNode(false) as HTMLSelectElement;
			copy.removeAttribute('id');
			copy.removeAttribute('name');
			copy.append(chosen.cloneNode(true));
			Object.assign(copy.style, {
				position: 'absolute',
				visibility: 'hidden',
				width: 'auto',
				minWidth: '0',
				maxWidth: 'none',
				flex: 'none'
			});
			el.after(copy);
			const needs = copy.getBoundingClientRect().width;
			copy.remove();
			const width = el.getBoundingClientRect().width;
			if (width + 0.5 < needs)
				found.push({
					selector: 'select' + (el.id ? `#${el.id}` : ''),
					width: Math.round(width),
					needs: Math.round(needs),
					text: chosen.text.trim().slice(0, 40)
				});
		}
		return found;
	});
}
