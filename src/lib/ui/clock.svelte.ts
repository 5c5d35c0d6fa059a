/**
 * The page's one clock for everything that shows time running out: the token panel's countdown and
 * badge, the "has expired" hint, the auto-refresh. `now` is reactive state, moved on by one timer
 * that runs while at least one display uses it (`start()` in an `$effect`, which never runs on the
 * server). One instance per page (the Flow holds it), never module state: the server renders many
 * pages at once, each with the time it was rendered at.
 */
export class Clock {
	/** The time, in ms since the epoch, as of the last tick. */
	now = $state(0);
	readonly #read: () => number;
	readonly #every: number;
	#timer: ReturnType<typeof setInterval> | undefined;
	#users = 0;

	/** `read` gives the time (injectable for tests); `every` is the tick, in ms. */
	constructor(read: () => number = () => Date.now(), every = 250) {
		this.#read = read;
		this.#every = every;
		this.now = read();
	}

	/** The time now, read afresh (for scheduling, not for display). */
	read(): number {
		return this.#read();
	}

	/** Reads the time into `now`. */
	tick(): void {
		this.now = this.#read();
	}

	/**
	 * A display starts using the clock: it ticks at once and then every `every` ms, on one timer
	 * however many displays use it. Returns the stop, for the effect's cleanup.
	 */
	start(): () => void {
		this.#users++;
		if (this.#users === 1) {
			this.tick();
			this.#timer = setInterval(() => this.tick(), this.#every);
		}
		let stopped = false;
		return () => {
			if (stopped) return;
			stopped = true;
			this.#users--;
			if (this.#users === 0) {
				clearInterval(this.#timer);
				this.#timer = undefined;
			}
		};
	}

	/** Whether the timer runs (for tests). */
	get running(): boolean {
		return this.#timer !== undefined;
	}
}
