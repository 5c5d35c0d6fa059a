/**
 * A small HTTP client for integration tests: a cookie jar, form actions called as the page calls
 * them, and the sandbox consent decided over plain HTTP. Every response body it sees is kept, so a
 * test can scan them all for the client secret. The implementation is shared with the bench and the
 * load script: scripts/lib/client.js.
 */
export {
	Client,
	consentUrlFrom,
	decide,
	newFlowId,
	unescapeHtml,
	type Seen
} from '../../scripts/lib/client.js';
