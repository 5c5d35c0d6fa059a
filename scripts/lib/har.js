// A HAR file holding one API call and its JSON answer, as a browser's Network export would: what
// the bench's (f) and the highlighting e2e test import into the page.

/**
 * @param {string} json the answer's body
 * @param {string} [url] the request's address
 * @returns {string} the HAR's text
 */
export function harWithAnswer(
	json,
	url = 'https://reader.example/reader/api/0/stream/contents/user/-/state/com.google/reading-list'
) {
	return JSON.stringify({
		log: {
			version: '1.2',
			creator: { name: 'feed-reader-oauth-playground', version: '1' },
			entries: [
				{
					startedDateTime: new Date(0).toISOString(),
					time: 12,
					request: {
						method: 'GET',
						url,
						httpVersion: 'HTTP/1.1',
						headers: [{ name: 'Authorization', value: 'Bearer <redacted>' }]
					},
					response: {
						status: 200,
						statusText: 'OK',
						httpVersion: 'HTTP/1.1',
						headers: [{ name: 'Content-Type', value: 'application/json' }],
						content: { size: json.length, mimeType: 'application/json', text: json }
					},
					timings: { send: 0, wait: 10, receive: 2 }
				}
			]
		}
	});
}
