import type { Cookies } from '@sveltejs/kit';

type SetOptions = Parameters<Cookies['set']>[2];
type DeleteOptions = Parameters<Cookies['delete']>[1];

/** An in-memory cookie jar with the methods of SvelteKit's `Cookies`, recording every set and delete. */
export class FakeCookies implements Cookies {
	readonly jar = new Map<string, string>();
	readonly sets: { name: string; value: string; opts: SetOptions }[] = [];
	readonly deletes: { name: string; opts: DeleteOptions }[] = [];

	constructor(initial: Record<string, string> = {}) {
		for (const [name, value] of Object.entries(initial)) this.jar.set(name, value);
	}

	get = (name: string): string | undefined => this.jar.get(name);

	getAll = (): { name: string; value: string }[] =>
		[...this.jar].map(([name, value]) => ({ name, value }));

	set = (name: string, value: string, opts: SetOptions): void => {
		this.sets.push({ name, value, opts });
		this.jar.set(name, value);
	};

	delete = (name: string, opts: DeleteOptions): void => {
		this.deletes.push({ name, opts });
		this.jar.delete(name);
	};

	serialize = (name: string, value: string): string => `${name}=${value}`;
}
