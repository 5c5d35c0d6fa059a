/**
 * The page's sticky bar (the progress line, and a docs link's reminder) covers the top of the
 * viewport. This action keeps `--sticky-height` on the root element at the bar's height, so that
 * the root's scroll-padding (app.css) stops whatever gets focus, or is scrolled to, below the bar
 * instead of under it.
 */
export function stickyHeight(node: HTMLElement) {
	const root = document.documentElement;
	const set = () => root.style.setProperty('--sticky-height', `${node.offsetHeight}px`);
	const watch = new ResizeObserver(set);
	watch.observe(node);
	set();
	return {
		destroy() {
			watch.disconnect();
			root.style.removeProperty('--sticky-height');
		}
	};
}
