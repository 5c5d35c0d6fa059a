import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter({ out: 'build', precompress: true }),
		// The origin check of form posts is done in hooks.server.ts (src/lib/server/csrf.ts), so that
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
