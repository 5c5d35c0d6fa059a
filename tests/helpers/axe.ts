/** axe-core run in the page (through the debugging protocol, so the page's CSP stays on). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
	id: string;
	impact: string | null;
	help: string;
	nodes: string[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
	await page.evaluate(`${source}\n;0`);
	return page.evaluate(async () => {
		const w = window as unknown as {
			axe: {
				run: (
					ctx: Document,
					opts: object
				) => Promise<{
					violations: {
						id: string;
						impact: string | null;
						help: string;
						nodes: { target: string[] }[];
					}[];
				}>;
			};
		};
		const r = await w.axe.run(document, { resultTypes: ['violations'] });
		return r.violations.map((v) => ({
			id: v.id,
			impact: v.impact,
			help: v.help,
			nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' '))
		}));
	});
}
