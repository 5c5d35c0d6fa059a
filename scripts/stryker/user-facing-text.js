// A Stryker ignore-plugin: mutants inside user-facing wording (finding messages, fixes, help texts,
// error messages) are not run. A test that kills them would only assert the wording; what the
// wording says is reviewed by reading it. Protocol strings (header names, parameter names, error
// codes, content types, URLs) are short and have no spaces, so they keep their mutants.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** Object properties whose value is text for people to read. */
const TEXT_KEYS = new Set([
	'message',
	'fix',
	'detail',
	'help',
	'note',
	'meaning',
	'description',
	'title',
	'heading',
	'label',
	'hint'
]);

const REASON = 'user-facing wording: reviewed by reading, not by asserting it in tests';

/** @param {any} node */
function staticText(node) {
	if (node.type === 'StringLiteral') return node.value;
	if (node.type === 'TemplateLiteral')
		return node.quasis.map((/** @type {any} */ q) => q.value.cooked ?? '').join(' ');
	return undefined;
}

/** Prose: at least four words, as a sentence or a clause is. */
function isProse(/** @type {string | undefined} */ text) {
	return text !== undefined && text.trim().split(/\s+/).length >= 4 && /[a-z]/i.test(text);
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'user-facing-text', {
		/** @param {any} path */
		shouldIgnore(path) {
			const node = path.node;
			// `message: …`, `fix: …` and the like, whatever the value's shape.
			if (
				(node.type === 'ObjectProperty' || node.type === 'Property') &&
				!node.computed &&
				((node.key.type === 'Identifier' && TEXT_KEYS.has(node.key.name)) ||
					(node.key.type === 'StringLiteral' && TEXT_KEYS.has(node.key.value)))
			)
				return REASON;
			// `new Error('…')`, `new TypeError(`…`)`: the message of a thrown error.
			if (
				node.type === 'NewExpression' &&
				node.callee.type === 'Identifier' &&
				/Error$/.test(node.callee.name)
			)
				return REASON;
			// A sentence anywhere else (a help text in a table, a returned explanation).
			if (isProse(staticText(node))) return REASON;
			return undefined;
		}
	})
];
