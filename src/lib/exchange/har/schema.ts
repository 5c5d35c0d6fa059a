/**
 * What a HAR file read for import must look like: zod schemas that accept a browser's Network
 * export as well as this playground's own. Every field is bounded. A malformed optional field falls
 * back to its default, a malformed list item is dropped, and an entry without a usable request fails
 * alone (the import skips and counts it) instead of failing the whole file.
 */
import { z } from '$lib/zod';
import { FAILURE_KINDS } from '../types';
import { STEP_NAMES } from '$lib/steps/registry';

/** An array whose malformed items are dropped, instead of failing the whole entry. */
// Stryker disable next-line BlockStatement: returning nothing makes the module throw as it loads; the test files that import it fail to load, which the vitest runner counts as no test run
function listOf<T extends z.ZodType>(item: T) {
	return z
		.array(z.unknown())
		.transform((items) =>
			items.flatMap((x) => {
				const r = item.safeParse(x);
				return r.success ? [r.data as z.output<T>] : [];
			})
		)
		.catch([]);
}

const str = (max = 20_000_000) => z.string().max(max);
const optStr = (max = 20_000_000) => z.string().max(max).optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const nameValue = z.object({ name: str(10_000), value: z.string().catch('') });

const findingSchema = z.object({
	level: z.enum(['error', 'warning', 'info']),
	code: str(200),
	message: str(10_000),
	fix: optStr(10_000),
	ref: optStr(1_000)
});

/** One entry of `log.entries`. */
export const entrySchema = z.object({
	startedDateTime: z.string().max(100).catch(''),
	time: z.number().catch(-1),
	request: z.object({
		method: str(32),
		url: str(),
		httpVersion: z.string().max(32).catch(''),
		headers: listOf(nameValue),
		postData: z
			.object({ mimeType: z.string().catch(''), text: optStr(), params: listOf(nameValue) })
			.optional()
			.catch(undefined)
	}),
	response: z
		.object({
			status: z.number().int().catch(0),
			statusText: z.string().max(1_000).catch(''),
			httpVersion: z.string().max(32).catch(''),
			headers: listOf(nameValue),
			content: z.object({ text: optStr(), encoding: optStr(100), size: optNum }).catch({}),
			_error: optStr(10_000)
		})
		.optional()
		.catch(undefined),
	timings: z
		.object({
			blocked: optNum,
			dns: optNum,
			connect: optNum,
			ssl: optNum,
			send: optNum,
			wait: optNum,
			receive: optNum
		})
		.catch({}),
	_id: optStr(200),
	_step: z.enum(STEP_NAMES).optional().catch(undefined),
	_findings: listOf(findingSchema).optional(),
	_failure: z
		.object({
			kind: z.enum(FAILURE_KINDS).catch('network'),
			message: str(10_000),
			detail: optStr(10_000),
			silent: z.literal(true).optional().catch(undefined)
		})
		.optional()
		.catch(undefined),
	_note: optStr(10_000),
	_redactions: listOf(z.object({ what: str(1_000), length: z.number().int().min(0) })).optional(),
	_truncated: z.boolean().optional().catch(undefined),
	_replay: z.literal(true).optional().catch(undefined)
});

export type HarInEntry = z.output<typeof entrySchema>;

/** The file: a `log` with an `entries` list; the entries are checked one by one with `entrySchema`. */
export const harSchema = z.object({
	log: z.object({
		version: z.unknown().optional(),
		creator: z
			.object({ name: z.string().catch('') })
			.optional()
			.catch(undefined),
		entries: z.array(z.unknown())
	})
});
