/**
 * Scopes of the service's API docs (§4.1, §5 step 7): `read`, or `read write`. Empty means the registration's default;
 * a "Read only" registration cannot get write. RFC 6749 §3.3: space-delimited, order does not matter.
 */
import type { SandboxScope } from './sandbox-config.server';

export type ScopeResult =
	{ ok: true; scope: SandboxScope } | { ok: false; error: 'invalid_scope'; description: string };

/** Plain-words descriptions of what each scope lets the application do (shown on the consent page). */
export const SCOPE_WORDS = {
	read: 'Read your subscriptions, tags and unread counts',
	write: 'Change your subscriptions and tags (add/remove tags, mark read)'
} as const;

export function hasWrite(scope: string): boolean {
	return scope.split(' ').includes('write');
}

/**
 * Works out the scope to grant from the requested `scope` and the registration's default scope.
 * The result is normalized to `read` or `read write`.
 */
export function parseScope(raw: string | null | undefined, registered: SandboxScope): ScopeResult {
	const words = (raw ?? '').split(' ').filter(Boolean);
	if (words.length === 0) return { ok: true, scope: registered };
	const unknown = words.filter((w) => w !== 'read' && w !== 'write');
	if (unknown.length) {
		return {
			ok: false,
			error: 'invalid_scope',
			description: `Unknown scope value ${JSON.stringify(unknown[0])}: request "read" or "read write"`
		};
	}
	const write = words.includes('write');
	if (write && !words.includes('read')) {
		return {
			ok: false,
			error: 'invalid_scope',
			description: 'Scope "write" must be requested together with "read": request "read write"'
		};
	}
	if (write && registered === 'read') {
		return {
			ok: false,
			error: 'invalid_scope',
			description: 'This application is registered as "Read only" and cannot request write'
		};
	}
	return { ok: true, scope: write ? 'read write' : 'read' };
}

/** The permissions a scope stands for, in plain words. */
export function permissionWords(scope: SandboxScope): string[] {
	return hasWrite(scope) ? [SCOPE_WORDS.read, SCOPE_WORDS.write] : [SCOPE_WORDS.read];
}
