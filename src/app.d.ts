// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		interface Error {
			message: string;
		}
		interface Locals {
			/** Set when the session cookie was present but could not be read (tampered, foreign, or old key). */
			sessionProblem?: string;
		}
	}
}

export {};
