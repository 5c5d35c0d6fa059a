import { execFileSync } from 'node:child_process';
import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * The build's name: the commit it is built from, the same in every process that loads this file.
 * SvelteKit's default is the time the file was loaded, which differs between processes, and
 * `npm test` builds while `svelte-kit sync` (in `check`) and vitest (the unit tests) load it too and
 * write it into .svelte-kit/generated: the server half of a build could then name another global
 * than its client half reads, and no page would start (tests/integration/build-name.test.ts).
 * Without git (a copy of the files only), SvelteKit's default.
 */
function commit() {
	try {
		return execFileSync('git', ['rev-parse', 'HEAD'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore']
		}).trim();
	} catch {
		return undefined;
	}
}
const name = commit();

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter({ out: 'build', precompress: true }),
		...(name ? { version: { name } } : {}),
		// The origin check of form posts is done in hooks.server.ts (src/lib/server/session/csrf.ts), so that
		// the sandbox's token endpoint and API, which servers call without an Origin, stay reachable.
		csrf: { trustedOrigins: ['*'] },
		csp: {
			mode: 'hash',
			directives: {
				'default-src': ['self'],
				'script-src': ['self'],
				'style-src': ['self', 'unsafe-inline'],
				'img-src': ['self', 'data:'],
				'connect-src': ['self'],
				// The sandbox's consent page adds the origin of its redirect URI (server/headers.js).
				'form-action': ['self'],
				'frame-ancestors': ['none'],
				'base-uri': ['none'],
				'object-src': ['none']
			}
		}
	}
};

export default config;
