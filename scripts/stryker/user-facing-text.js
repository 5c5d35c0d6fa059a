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

/** @param {any} node */
const isTextProperty = (node) =>
	(node.type === 'ObjectProperty' || node.type === 'Property') &&
	!node.computed &&
	((node.key.type === 'Identifier' && TEXT_KEYS.has(node.key.name)) ||
		(node.key.type === 'StringLiteral' && TEXT_KEYS.has(node.key.value)));

/**
 * A text, or a choice between texts (`a ? 'x' : b ? 'y' : \`z\``).
 * @param {any} node
 * @returns {boolean}
 */
const isText = (node) =>
	node.type === 'StringLiteral' ||
	node.type === 'TemplateLiteral' ||
	(node.type === 'ConditionalExpression' && isText(node.consequent) && isText(node.alternate));

/**
 * `const said = desc ? \` The service said: "${desc}".\` : ''` (a text, a choice between texts, or a
 * function that gives one) whose every use is inside the value of a text property (`message: \`…${said}\``): it only
 * goes into wording, so its own mutants are wording too. A value of any other kind (a flag that
 * picks one message or another) keeps its mutants.
 * @param {any} path
 */
function onlyInWording(path) {
	const node = path.node;
	if (node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier' || !node.init)
		return false;
	const init = node.init;
	// A text, or a function of one expression that gives a text (`(from) => from === 'x' ? … : …`).
	const text = init.type === 'ArrowFunctionExpression' ? init.body : init;
	if (!isText(text)) return false;
	const binding = path.scope.getBinding(node.id.name);
	if (!binding || binding.kind !== 'const' || binding.referencePaths.length === 0) return false;
	return binding.referencePaths.every((/** @type {any} */ ref) =>
		ref.findParent((/** @type {any} */ p) => isTextProperty(p.node))
	);
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'user-facing-text', {
		/** @param {any} path */
		shouldIgnore(path) {
			const node = path.node;
			// `message: …`, `fix: …` and the like, whatever the value's shape.
			if (isTextProperty(node)) return REASON;
			// `const said = …`, used only inside such values.
			if (onlyInWording(path)) return REASON;
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
