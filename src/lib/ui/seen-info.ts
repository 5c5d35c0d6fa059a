/**
 * Which info-level findings this browser has shown before, by code (localStorage): in the page
 * load where an explanation first shows, it shows whole (in the step card and in the transcript
 * alike); in later loads it folds to its first sentence (ui/Findings.svelte). Errors, warnings and
 * their fixes never fold, and the exports always carry everything.
 */
export const SEEN_KEY = 'playground.seen-info.v1';
/** At most this many codes are kept; the oldest go first. */
const MAX_CODES = 200;

/** What the browser held when this page loaded (read once), and what it holds now. */
let before: ReadonlySet<string> | undefined;
let stored: string[] | undefined;

function storage(): Storage | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		return undefined;
	}
}

function read(): string[] {
	try {
		const list: unknown = JSON.parse(storage()?.getItem(SEEN_KEY) ?? '[]');
		return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
	} catch {
		return []; // storage off, or not ours: nothing was shown
	}
}

function load(): string[] {
	if (!stored) {
		stored = read();
		before = new Set(stored);
	}
	return stored;
}

/** Whether an info finding with this code was shown in an earlier page load of this browser. */
export function shownBefore(code: string): boolean {
	load();
	return before!.has(code);
}

/** Notes that these codes were shown, for the next page load. */
export function markShown(list: readonly string[]): void {
	const now = load();
	const fresh = [...new Set(list)].filter((c) => !now.includes(c));
	if (!fresh.length) return;
	stored = [...now, ...fresh].slice(-MAX_CODES);
	try {
		storage()?.setItem(SEEN_KEY, JSON.stringify(stored));
	} catch {
		/* storage off or full: it shows whole again next time */
	}
}

/** "The first sentence." of a text, and the rest; a text of one sentence has no rest. */
export function firstSentence(text: string): { first: string; rest: string } {
	const m = /^(.+?[.!?])\s+(?=[A-Z“"(])/s.exec(text);
	return m ? { first: m[1]!, rest: text.slice(m[0].length) } : { first: text, rest: '' };
}
