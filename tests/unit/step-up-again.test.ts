/**
 * The step-up's two ends in the page (ui/step-up.ts): no offer where this setup's flow showed the
 * registration cannot have the scope (a consent asking for it refused with invalid_scope, or
 * granted less), and the refused call sent again once a token answer granting it came after it.
 * The call is kept in the tab as typed, never with an Authorization header.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import {
	callFields,
	callToSendAgain,
	callWords,
	cannotHave,
	keepCall,
	keptCall,
	scopeToRestore,
	stepUpScope,
	type CallFields,
	type KeptCall
} from '$lib/ui/step-up';

let n = 0;
function ex(step: Exchange['step'], url: string, status?: number, body = ''): Exchange {
	return {
		id: `ex-${++n}`,
		step,
		startedAt: '2026-03-14T10:00:00.000Z',
		request: { method: 'GET', url, httpVersion: '1.1', headers: [], body: '' },
		...(status === undefined
			? {}
			: {
					response: {
						status,
						statusText: '',
						httpVersion: '1.1',
						headers: [],
						body,
						truncated: false
					}
				}),
		timing: { total: 1 },
		findings: []
	};
}

const consent = (scope: string) =>
	ex(
		'consent',
		`https://reader.example/oauth2/auth?client_id=c&scope=${encodeURIComponent(scope)}`
	);
const back = (query: string) => ex('callback', `http://127.0.0.1:5173/callback?${query}`);
const tokens = (scope?: string) =>
	ex(
		'exchange',
		'https://reader.example/oauth2/token',
		200,
		JSON.stringify({ access_token: 'a', scope })
	);
function refused(value = 'read write'): Exchange {
	const call = ex('api', 'https://reader.example/reader/api/0/edit-tag', 403);
	call.request.method = 'POST';
	call.findings = [
		{ level: 'error', code: 'insufficient_scope', message: 'm', suggest: { field: 'scope', value } }
	];
	return call;
}

const FIELDS: CallFields = {
	method: 'POST',
	path: 'edit-tag',
	query: '',
	headers: 'X-Request-Id: 42',
	body_kind: 'form',
	body: 'i=item-1&a=user/-/state/com.google/starred',
	content_type: ''
};

describe('the step-up offer', () => {
	test('offered after a read token: nothing showed the registration cannot have read write', () => {
		const call = refused();
		expect(stepUpScope(call, [consent('read'), back('code=x'), tokens('read'), call])).toBe(
			'read write'
		);
	});

	test('none once a consent asking for it was refused with invalid_scope', () => {
		const call = refused();
		const flow = [
			consent('read'),
			tokens('read'),
			call,
			consent('write read'),
			back('error=invalid_scope')
		];
		expect(stepUpScope(call, flow)).toBeUndefined();
		// Refused for another reason, or asking for less: still offered.
		expect(
			stepUpScope(call, [
				consent('read'),
				tokens('read'),
				call,
				consent('read write'),
				back('error=access_denied')
			])
		).toBe('read write');
		expect(
			stepUpScope(call, [
				consent('read'),
				back('error=invalid_scope'),
				consent('read'),
				tokens('read'),
				call
			])
		).toBe('read write');
	});

	test('none once a consent asking for it was granted less; offered when granted all', () => {
		expect(cannotHave('read write', [consent('read write'), tokens('read')])).toBe(true);
		expect(cannotHave('read write', [consent('read write'), tokens('write read')])).toBe(false);
		// A token answer without scope granted what was asked (RFC 6749 §5.1).
		expect(cannotHave('read write', [consent('read write'), tokens(undefined)])).toBe(false);
		// A replay is a check sent on purpose, not the flow's own answer.
		const replayed = tokens('read');
		replayed.replay = true;
		expect(cannotHave('read write', [consent('read write'), replayed])).toBe(false);
	});

	test('a refresh answers for its grant, not for a consent opened and left: the offer stays', () => {
		const call = refused();
		// The step-up's consent opened, then abandoned; a refresh of the read token answers read.
		const refreshed = { ...tokens('read'), step: 'refresh' as const };
		const flow = [consent('read'), tokens('read'), call, consent('read write'), refreshed];
		expect(stepUpScope(call, flow)).toBe('read write');
		// Nor does a refresh make the call ready to send again (a server may leave scope out of it).
		const kept: KeptCall = { exchange: call.id, fields: FIELDS };
		const quiet = { ...tokens(undefined), step: 'refresh' as const };
		expect(callToSendAgain(kept, call, [...flow.slice(0, 4), quiet])).toBeUndefined();
	});

	test('none without a finding that names a scope', () => {
		const call = refused();
		call.findings = [];
		expect(stepUpScope(call, [call])).toBeUndefined();
		expect(stepUpScope(undefined, [])).toBeUndefined();
	});
});

describe('the call sent again', () => {
	test('ready once a token answer after the refused call grants the scope', () => {
		const call = refused();
		const kept: KeptCall = { exchange: call.id, fields: FIELDS };
		const before = [consent('read'), tokens('read'), call];
		expect(callToSendAgain(kept, call, before)).toBeUndefined();
		// A grant before the refused call is not the step-up's.
		const earlier = [consent('read write'), tokens('read write'), ...before];
		expect(callToSendAgain(kept, call, earlier)).toBeUndefined();
		expect(
			callToSendAgain(kept, call, [...before, consent('read write'), tokens('read write')])
		).toBe(kept);
		// Granted less again: not ready (the step-up's own line then says the registration).
		expect(
			callToSendAgain(kept, call, [...before, consent('read write'), tokens('read')])
		).toBeUndefined();
	});

	test('only the kept call, only while it is the newest', () => {
		const call = refused();
		const flow = [
			consent('read'),
			tokens('read'),
			call,
			consent('read write'),
			tokens('read write')
		];
		expect(callToSendAgain({ exchange: 'other', fields: FIELDS }, call, flow)).toBeUndefined();
		expect(callToSendAgain(undefined, call, flow)).toBeUndefined();
		const done = ex('api', 'https://reader.example/reader/api/0/edit-tag', 200, 'OK');
		expect(
			callToSendAgain({ exchange: done.id, fields: FIELDS }, done, [...flow, done])
		).toBeUndefined();
	});

	test('the button says the call; the fields are read from the form as posted', () => {
		const call = refused();
		expect(callWords({ exchange: call.id, fields: FIELDS }, call)).toBe('POST edit-tag');
		const form = new FormData();
		for (const [k, v] of Object.entries(FIELDS)) if (v) form.set(k, v);
		expect(callFields(form)).toEqual(FIELDS);
	});
});

describe("the step-up's Undo", () => {
	const call = refused();
	const kept: KeptCall = {
		exchange: call.id,
		fields: FIELDS,
		scopeBefore: 'read',
		scopeAsked: 'read write'
	};
	test('the scope before, while the setup holds the one the step-up saved', () => {
		expect(scopeToRestore(kept, call, 'read write')).toBe('read');
		// An empty scope before (the default) is a scope to put back too.
		expect(scopeToRestore({ ...kept, scopeBefore: '' }, call, 'read write')).toBe('');
	});
	test('none once the setup changed, another call was made, or no step-up was made', () => {
		expect(scopeToRestore(kept, call, 'read')).toBeUndefined();
		expect(scopeToRestore(kept, refused(), 'read write')).toBeUndefined();
		expect(
			scopeToRestore({ exchange: call.id, fields: FIELDS }, call, 'read write')
		).toBeUndefined();
		expect(scopeToRestore(undefined, call, 'read write')).toBeUndefined();
	});
});

describe('kept in the tab', () => {
	afterEach(() => vi.unstubAllGlobals());
	function tab(): Map<string, string> {
		const items = new Map<string, string>();
		vi.stubGlobal('sessionStorage', {
			getItem: (k: string) => items.get(k) ?? null,
			setItem: (k: string, v: string) => void items.set(k, v)
		});
		return items;
	}

	test('by flow, as typed, and read back', () => {
		const items = tab();
		keepCall('flow-a', { exchange: 'ex-1', fields: FIELDS });
		expect(keptCall('flow-a')).toEqual({ exchange: 'ex-1', fields: FIELDS });
		expect(keptCall('flow-b')).toBeUndefined();
		const stepped = { exchange: 'ex-1', fields: FIELDS, scopeBefore: '', scopeAsked: 'read write' };
		keepCall('flow-a', stepped);
		expect(keptCall('flow-a')).toEqual(stepped);
		// Half a step-up record is none.
		items.set('playground.api-call.flow-a', JSON.stringify({ ...stepped, scopeAsked: 1 }));
		expect(keptCall('flow-a')).toEqual({ exchange: 'ex-1', fields: FIELDS });
		expect([...items.keys()]).toEqual(['playground.api-call.flow-a']);
	});

	test('never with an Authorization header', () => {
		const items = tab();
		keepCall('flow-a', {
			exchange: 'ex-1',
			fields: { ...FIELDS, headers: 'X-A: 1\n authorization : Bearer abc' }
		});
		expect(items.size).toBe(0);
	});

	test('a malformed record, or no storage, is no call', () => {
		const items = tab();
		items.set('playground.api-call.f', '{"exchange":1}');
		expect(keptCall('f')).toBeUndefined();
		items.set('playground.api-call.f', 'not json');
		expect(keptCall('f')).toBeUndefined();
		items.set(
			'playground.api-call.f',
			JSON.stringify({ exchange: 'e', fields: { ...FIELDS, body: 3 } })
		);
		expect(keptCall('f')).toBeUndefined();
		vi.unstubAllGlobals();
		vi.stubGlobal('sessionStorage', undefined);
		keepCall('f', { exchange: 'e', fields: FIELDS });
		expect(keptCall('f')).toBeUndefined();
	});
});
