/**
 * Small HTTP helpers of the sandbox: JSON answers that are never cached, a size-capped body reader,
 * and form parsing that refuses repeated parameters (RFC 6749 §3.1, §3.2).
 */

/** Bodies of the token endpoint and of API writes are small: anything bigger is refused. */
export const MAX_BODY_BYTES = 16 * 1024;

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function jsonResponse(
	status: number,
	body: unknown,
	headers: Record<string, string> = {}
): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers }
	});
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(contentType: string | null): string | undefined {
	if (!contentType) return undefined;
	return contentType.split(';')[0]!.trim().toLowerCase() || undefined;
}

export function isFormContentType(contentType: string | null): boolean {
	return mediaType(contentType) === 'application/x-www-form-urlencoded';
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' };

/** Reads a request body as UTF-8 text, stopping as soon as it passes `limit` bytes. */
export async function readBodyCapped(
	request: Request,
	limit = MAX_BODY_BYTES
): Promise<BodyResult> {
	const declared = Number(request.headers.get('content-length'));
	if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: 'too-large' };
	if (!request.body) return { ok: true, text: '' };
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > limit) {
			await reader.cancel().catch(() => {});
			return { ok: false, reason: 'too-large' };
		}
		chunks.push(value);
	}
	return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

/** The first parameter that occurs more than once, if any. */
export function repeatedParameter(
	params: URLSearchParams,
	names?: readonly string[]
): string | undefined {
	const seen = new Set<string>();
	for (const name of params.keys()) {
		if (names && !names.includes(name)) continue;
		if (seen.has(name)) return name;
		seen.add(name);
	}
	return undefined;
}
