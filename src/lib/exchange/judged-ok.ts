/**
 * Whether an answer is a success whatever its HTTP status: the step cards, the diagram and the
 * verdict (verdict.ts) all read it, so it stands apart from the verdict, which loads later.
 */
import { specOf } from '$lib/steps/registry';
import type { Exchange } from './types';

/**
 * The words of an answer that is a success whatever its HTTP status, by its step's spec (`okWhen`:
 * the client secret check's credentials accepted, though its made-up code was refused); none else.
 */
export function judgedOk(ex: Exchange): string | undefined {
	const ok = specOf(ex.step).okWhen;
	if (!ok) return undefined;
	const found = ex.findings.find((f) => Object.hasOwn(ok, f.code));
	return found && ok[found.code];
}
