import { describe, expect, it } from 'vitest';
import { hasWrite, parseScope, permissionWords, SCOPE_WORDS } from '$lib/sandbox/scope.server';

describe('sandbox scope parsing (the service’s API docs §4.1)', () => {
	it('uses the registration default when scope is empty or omitted', () => {
		expect(parseScope(null, 'read write')).toEqual({ ok: true, scope: 'read write' });
		expect(parseScope('', 'read')).toEqual({ ok: true, scope: 'read' });
		expect(parseScope('   ', 'read write')).toEqual({ ok: true, scope: 'read write' });
	});

	it('accepts read and read write in any order and normalizes to "read write"', () => {
		expect(parseScope('read', 'read write')).toEqual({ ok: true, scope: 'read' });
		expect(parseScope('read write', 'read write')).toEqual({ ok: true, scope: 'read write' });
		expect(parseScope('write read', 'read write')).toEqual({ ok: true, scope: 'read write' });
		expect(parseScope(' read  write ', 'read write')).toEqual({ ok: true, scope: 'read write' });
		expect(parseScope('read read', 'read')).toEqual({ ok: true, scope: 'read' });
	});

	it('refuses write for a read-only registration', () => {
		const r = parseScope('read write', 'read');
		expect(r.ok).toBe(false);
		if (!r.ok) {
			expect(r.error).toBe('invalid_scope');
			expect(r.description).toMatch(/Read only/);
		}
	});

	it('refuses unknown values and write without read', () => {
		for (const raw of ['admin', 'read admin', 'READ', 'read,write', 'write']) {
			const r = parseScope(raw, 'read write');
			expect(r.ok, raw).toBe(false);
			if (!r.ok) expect(r.error).toBe('invalid_scope');
		}
	});

	it('describes the permissions in plain words', () => {
		expect(permissionWords('read')).toEqual([SCOPE_WORDS.read]);
		expect(permissionWords('read write')).toEqual([SCOPE_WORDS.read, SCOPE_WORDS.write]);
		expect(hasWrite('read write')).toBe(true);
		expect(hasWrite('read')).toBe(false);
	});
});
