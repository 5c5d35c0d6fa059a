import { describe, expect, test } from 'vitest';
import { needsFlowSteps } from '$lib/ui/steps/parts';
import type { Exchange } from '$lib/exchange/types';

const fresh = { setup: null, callback: null, outbox: [] };
const ex = (step: Exchange['step']) => ({ step }) as Exchange;

describe('the steps after the setup load when the page needs them', () => {
	test('a fresh visit needs only their waiting cards', () => {
		expect(needsFlowSteps(fresh)).toBe(false);
		expect(needsFlowSteps({ setup: null, callback: null })).toBe(false);
	});
	test('a setup, a redirect back or an exchange handed to the tab needs them', () => {
		expect(needsFlowSteps({ ...fresh, setup: { client_id: 'a' } })).toBe(true);
		expect(needsFlowSteps({ ...fresh, callback: { verdict: 'no-pending-state' } })).toBe(true);
		expect(needsFlowSteps({ ...fresh, outbox: [ex('callback')] })).toBe(true);
	});
	test('the tab’s transcript needs them, unless it holds only the setup’s metadata fetch', () => {
		expect(needsFlowSteps(fresh, [ex('discovery')])).toBe(false);
		expect(needsFlowSteps(fresh, [ex('discovery'), ex('exchange')])).toBe(true);
	});
});
