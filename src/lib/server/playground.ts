/**
 * The playground's services, as the composition root (src/lib/app.server.ts) builds them once per
 * app: the functions of `server/` take what they need of this object, never a module variable.
 */
import type { Base } from '$lib/base.server';
import { createLimits, type Limits } from './abuse';

export interface Playground extends Base {
	/** The abuse limit, the in-flight cap and who a request comes from (abuse.ts). */
	readonly limits: Limits;
}

/** The playground's services on an app's base. */
export function playgroundOn(base: Base): Playground {
	return { ...base, limits: createLimits(base) };
}
