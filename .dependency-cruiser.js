/**
 * The direction of imports, checked by `npm run check` (scripts/check-imports.js runs
 * dependency-cruiser with these rules):
 *
 *   steps  <-  exchange  <-  oauth  <-  server  <-  routes and hooks
 *   (the step   (the record     (the protocol,  (the playground's      (the app: mounts the playground
 *    specs)      and its views)  pure)           server side)            and the sandbox)
 *
 *   steps     the step specs and their registry: plain data every layer asks, the browser's
 *             first load included, so they import nothing of ours or of a package but types
 *   sandbox   the built-in service stands apart: it imports only its own modules and the shared
 *             base, nothing of exchange/oauth/server/ui (it needs none of them)
 *   shared    src/lib/{config,env,keys}.server.*: the one configuration (parseConfig of the
 *             environment) and the key material, used by server and sandbox alike; they import
 *             only each other
 *   ui        browser code (with every .svelte file and highlight.ts): no server-only module,
 *             but the sandbox's table of reader endpoints (sandbox/reader-endpoints.ts), plain
 *             data that imports nothing, read by the API console to say a call's zone
 *
 * Paths are relative to the project root. Type-only imports count in .ts files; in .svelte files
 * dependency-cruiser sees what the Svelte compiler leaves, so there only value imports count.
 */
const STEPS = '^src/lib/steps/';
const EXCHANGE = '^src/lib/exchange/';
const OAUTH = '^src/lib/oauth/';
const SERVER = '^src/lib/server/';
const SANDBOX = '^src/lib/sandbox/';
/**
 * The shared base: configuration, the environment it is parsed from, the keys, and the shared
 * store's connection and fixed-window counters (REDIS_URL), which the abuse limit and the sandbox
 * both use, and who is asking (proxy.server.ts: the peer and the client address the limits count).
 */
const KEYS = '^src/lib/(base|keys|config|redis|fixed-window|proxy)\\.server\\.[jt]s$';
const UI = '^src/lib/ui/';
/** The sandbox's table of reader endpoints and zones: the sandbox's own, which the browser reads too. */
const SANDBOX_TABLE = '^src/lib/sandbox/reader-endpoints\\.ts$';
const APP = ['^src/routes/', '^src/hooks\\.'];
/** Server-only by SvelteKit's own rule: $lib/server and any *.server.* module. */
const SERVER_ONLY = [SERVER, SANDBOX, KEYS, '\\.server\\.[jt]s$'];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
	forbidden: [
		{
			name: 'step-specs-import-only-types',
			comment:
				'src/lib/steps holds the step specs and their registry: data that every layer asks (specOf), the page in the browser too, whose first load carries all of them. Besides each other they import only types: no code of ours, no package, no node: module.',
			severity: 'error',
			from: { path: STEPS },
			to: { pathNot: STEPS, dependencyTypesNot: ['type-only'] }
		},
		{
			name: 'exchange-imports-nothing-above-it',
			comment:
				'src/lib/exchange is the bottom layer: the Exchange record and pure views of it. It imports no protocol, server, sandbox or UI code.',
			severity: 'error',
			from: { path: EXCHANGE },
			to: { path: [OAUTH, SERVER, SANDBOX, KEYS, UI] }
		},
		{
			name: 'oauth-imports-nothing-above-it',
			comment:
				'src/lib/oauth is the protocol, pure: it may import exchange, never server, sandbox or UI code.',
			severity: 'error',
			from: { path: OAUTH },
			to: { path: [SERVER, SANDBOX, KEYS, UI] }
		},
		{
			name: 'server-imports-no-sandbox-or-ui',
			comment:
				'src/lib/server is the playground: it never reaches into the sandbox (the hook hands over what it needs) nor into UI code.',
			severity: 'error',
			from: { path: SERVER },
			to: { path: [SANDBOX, UI] }
		},
		{
			name: 'sandbox-stands-apart',
			comment:
				'src/lib/sandbox is a service of its own: besides its own modules it imports only the shared base (configuration, keys, the shared store connection and counters).',
			severity: 'error',
			from: { path: SANDBOX },
			to: { path: '^src/', pathNot: [SANDBOX, KEYS] }
		},
		{
			name: 'shared-base-imports-nothing-else',
			comment:
				'The shared base (the base, config, keys, Redis, counters and proxy .server modules) is used by the playground and the sandbox, so it imports neither, nor anything else of ours but itself.',
			severity: 'error',
			from: { path: KEYS },
			to: { path: '^src/', pathNot: KEYS }
		},
		{
			name: 'browser-code-imports-no-server-code',
			comment:
				'UI modules, .svelte files and highlight.ts run in the browser: no server-only module (SvelteKit would refuse the build; this says so earlier).',
			severity: 'error',
			from: { path: [UI, '\\.svelte$', '^src/lib/highlight\\.ts$'] },
			to: { path: SERVER_ONLY, pathNot: SANDBOX_TABLE }
		},
		{
			name: 'sandbox-table-imports-nothing',
			comment:
				"The sandbox's table of reader endpoints (method and zone of each) is read by the API console in the browser as well as by the sandbox: plain data, it imports nothing.",
			severity: 'error',
			from: { path: SANDBOX_TABLE },
			to: {}
		},
		{
			name: 'setup-table-loads-no-zod',
			comment:
				"The table of setup fields is read by the setup form in the browser: it names zod's types only, and its rules are built with the zod setup.ts hands them, so that the first page load does not carry zod (about 28 KB gzip).",
			severity: 'error',
			from: { path: '^src/lib/oauth/setup-fields\\.ts$' },
			to: { path: ['^src/lib/zod\\.ts$', 'node_modules/zod/'], dependencyTypesNot: ['type-only'] }
		},
		{
			name: 'one-way-out',
			comment:
				'What the server hands the page is redacted in one place, server/flow/way-out.ts (outward, and secretsOf, the one list of secrets): no other server module, route or hook calls the redaction itself.',
			severity: 'error',
			from: { path: [SERVER, ...APP], pathNot: '^src/lib/server/flow/way-out\\.ts$' },
			to: { path: '^src/lib/exchange/redact\\.ts$' }
		},
		{
			name: 'app-handed-down',
			comment:
				"Nothing in src/lib reads the request being handled ($app/server's getRequestEvent): the wrapper that runs a flow, its load and /callback (server/flow/action.ts flowContext) builds the flow's context from the request event and hands it down with the app (server/flow/context.ts), so nothing has a silent answer outside a request. Routes and hooks have the event.",
			severity: 'error',
			from: { path: '^src/lib/' },
			to: { path: '^\\$app/server$' }
		},
		{
			name: 'lib-imports-no-routes',
			comment: 'Routes and hooks sit on top: nothing in src/lib imports them.',
			severity: 'error',
			from: { path: '^src/lib/' },
			to: { path: APP }
		},
		{
			name: 'imports-resolve',
			comment:
				'Every import of ours resolves to a file (so no rule above is passed by an import the check could not follow). SvelteKit-generated ./$types and the $app/$env modules are the exceptions.',
			severity: 'error',
			from: { path: '^src/' },
			to: { couldNotResolve: true, pathNot: ['(^|/)\\$types$', '^\\$app/', '^\\$env/'] }
		}
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		// Count `import type` too: a type import across layers is still a dependency.
		tsPreCompilationDeps: true,
		// $lib and the other SvelteKit aliases are added by scripts/check-imports.js from
		// .svelte-kit/tsconfig.json: the `tsConfig` option would resolve their "../src/lib" paths
		// against the working directory, not against .svelte-kit/.
		enhancedResolveOptions: {
			exportsFields: ['exports'],
			conditionNames: ['import', 'require', 'node', 'svelte', 'types', 'default'],
			mainFields: ['module', 'main', 'types'],
			extensions: ['.ts', '.js', '.svelte', '.json']
		},
		// Exact edges that break a rule on purpose, each with the reason. Nothing is exempt now.
		knownViolations: []
	}
};
