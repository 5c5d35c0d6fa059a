// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
		}
		interface Platform {
			/** adapter-node's Node request (its socket's peer decides whether proxy headers are believed); absent in dev and preview. */
			req?: import('node:http').IncomingMessage;
		}
		interface Locals {
			/** The app's services, built once at start by the composition root (src/lib/app.server.ts). */
			app: import('$lib/app.server').App;
			/** Set when the session cookie was present but could not be read (tampered, foreign, or old key). */
			sessionProblem?: string;
		}
	}
}

export {};
