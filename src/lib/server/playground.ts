/**
 * The playground's services, as the composition root (src/lib/app.server.ts) builds them once per
 * app: the functions of `server/` take what they need of this object, never a module variable.
 */
import type { Base } from '$lib/base.server';

export type Playground = Base;
