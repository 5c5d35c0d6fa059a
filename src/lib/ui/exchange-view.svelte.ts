/**
 * ExchangeView, loaded the first time an exchange is to be shown outside the steps (the transcript,
 * the metadata fill): a fresh page shows none, so its first load carries none of that script. The
 * exchanges it shows live in the tab only, so the server never renders one.
 */
import type ExchangeViewComponent from './ExchangeView.svelte';

let loaded = $state<typeof ExchangeViewComponent>();
let loading: Promise<unknown> | undefined;

export const exchangeView = {
	/** The component once loaded, else undefined. */
	get current(): typeof ExchangeViewComponent | undefined {
		return loaded;
	},
	/** Starts loading it (once); resolves once it is loaded. */
	load(): Promise<unknown> {
		return (loading ??= import('./ExchangeView.svelte').then((m) => (loaded = m.default)));
	}
};
