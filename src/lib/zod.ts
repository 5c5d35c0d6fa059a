/**
 * zod for code that runs in the browser. Zod 4 compiles object parsers with `new Function` when it
 * may, and probes for that the first time a schema is built; under the page's CSP (no
 * 'unsafe-eval') the probe is reported as a violation even though zod catches the error. In the
 * browser (a page, or a worker such as the HAR import's, whose policy has no 'unsafe-eval' either)
 * zod therefore runs with its JIT off, set here before any schema that imports this module is
 * built. The server keeps the JIT.
 */
import { z } from 'zod';

if (typeof window !== 'undefined' || 'WorkerGlobalScope' in globalThis) z.config({ jitless: true });

export { z };
