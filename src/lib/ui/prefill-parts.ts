/** A docs link's banner and its short form in the sticky bar: loaded only by a page opened with one (steps/parts.ts). */
export { default as PrefillBanner } from './PrefillBanner.svelte';
export { default as PrefillReminder } from './PrefillReminder.svelte';
