/**
 * A HAR of token requests sending `secrets` different client secrets of `length` characters, one
 * after another, for the e2e tests and the bench's (j), which import it: the file (1,000 token requests
 * with different 1,024-character secrets froze the page for 26 s) at the import's limits. Each
 * answer echoes the secret of the request before it (under a name that is not `client_secret`), so
 * a secret is found in another entry than the one that sends it; a filler in each answer brings the
 * file to `bytes` bytes. Made by the test that needs it: megabytes are not committed.
 */
/**
 * @typedef {object} ManySecretsHar
 * @property {string} text the file's text, exactly `bytes` bytes long (all ASCII)
 * @property {string[]} secrets the secrets, in the order the requests send them
 */

const TOKEN = 'https://reader.test/oauth2/token';

/**
 * A secret of `length` characters made from `i`, of letters, digits and `-._~`.
 * @param {number} i
 * @param {number} length
 * @returns {string}
 */
function secretOf(i, length) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
	let out = `s${i}-`;
	let x = i + 1;
	while (out.length < length) {
		x = (x * 1103515245 + 12345) % 2147483648;
		out += alphabet[x % alphabet.length];
	}
	return out.slice(0, length);
}

/**
 * @param {{ secrets: number, entries: number, bytes: number, length?: number }} options
 * @returns {ManySecretsHar}
 */
export function manySecretsHar({ secrets: count, entries, bytes, length = 1024 }) {
	const secrets = Array.from({ length: count }, (_, i) => secretOf(i, length));
	const make = (/** @type {(k: number) => string} */ filler) =>
		JSON.stringify({
			log: {
				version: '1.2',
				creator: { name: 'a test', version: '1' },
				entries: Array.from({ length: entries }, (_, k) => ({
					startedDateTime: '2026-03-14T09:26:53.000Z',
					time: 12,
					request: {
						method: 'POST',
						url: TOKEN,
						httpVersion: 'HTTP/1.1',
						headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
						postData: {
							mimeType: 'application/x-www-form-urlencoded',
							text: `grant_type=client_credentials&client_id=app-${k % count}&client_secret=${secrets[k % count]}`
						}
					},
					response: {
						status: 401,
						statusText: 'Unauthorized',
						httpVersion: 'HTTP/1.1',
						headers: [{ name: 'Content-Type', value: 'application/json' }],
						content: {
							mimeType: 'application/json',
							text: JSON.stringify({
								error: 'invalid_client',
								previous: secrets[(k + entries - 1) % count],
								filler: filler(k)
							})
						}
					},
					timings: { wait: 10, receive: 2 }
				}))
			}
		});
	// Each filler is the JSON string of a JSON string, escaped twice: a letter stays one byte.
	const bare = make(() => '').length;
	const each = Math.floor((bytes - bare) / entries);
	if (each < 0) throw new Error(`${entries} entries take ${bare} bytes, over ${bytes}`);
	const extra = bytes - bare - each * entries;
	const sentence = 'The service refused the client; this text fills the answer. ';
	const fill = (/** @type {number} */ n) =>
		sentence.repeat(Math.ceil(n / sentence.length)).slice(0, n);
	const text = make((k) => fill(each + (k < extra ? 1 : 0)));
	if (text.length !== bytes) throw new Error(`made ${text.length} bytes, not ${bytes}`);
	return { text, secrets };
}
