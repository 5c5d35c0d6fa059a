/**
 * Reading a form body that may be malformed: a multipart body with a missing or wrong boundary, a
 * text/plain body, a cut-off upload. request.formData() throws on those, which a form action would
 * turn into a 500; here they become a 400 that says what was wrong. A body over the size cap keeps
 * its own 413.
 */
import { fail } from '@sveltejs/kit';

export async function readForm(
	request: Request
): Promise<
	| { ok: true; form: FormData }
	| { ok: false; failure: ReturnType<typeof fail<{ message: string }>> }
> {
	try {
		return { ok: true, form: await request.formData() };
	} catch (e) {
		const status = (e as { status?: unknown }).status;
		if (typeof status === 'number' && status >= 400 && status < 500) throw e; // 413 from the body cap: keep it
		const type =
			(request.headers.get('content-type') ?? '').split(';')[0]!.trim() || 'no content type';
		return {
			ok: false,
			failure: fail(400, {
				message: `The form body could not be read (${type}): send it as application/x-www-form-urlencoded or well-formed multipart/form-data.`
			})
		};
	}
}
