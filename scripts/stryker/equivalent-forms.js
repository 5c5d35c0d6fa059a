// A Stryker ignore-plugin: mutants that cannot change what the code does, recognised by the shape
// of the code around them, so that no `// Stryker disable` comment has to say so in the code. Each
// rule proves its case from the syntax alone (and, for a pattern, by running it), and says why in
// the reason Stryker reports. A rule that cannot prove a case leaves the mutant to run.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** The text Stryker's StringLiteral mutator puts in place of an empty string. */
const MUTANT_TEXT = 'Stryker was here!';

/** @param {any} node */
const isUndefined = (node) =>
	node === null || (node.type === 'Identifier' && node.name === 'undefined');

/** @param {any} node a function's parameter list or body, up to the function */
const isFunction = (node) =>
	node.type === 'FunctionDeclaration' ||
	node.type === 'FunctionExpression' ||
	node.type === 'ArrowFunctionExpression' ||
	node.type === 'ObjectMethod' ||
	node.type === 'ClassMethod';

/**
 * `try { … } catch { return undefined; }` as a function's last statement: emptying the catch ends
 * the function with `undefined` all the same.
 * @param {any} path
 */
function catchFallsThrough(path) {
	const node = path.node;
	if (node.type !== 'BlockStatement' || path.parent.type !== 'CatchClause') return undefined;
	const [only, ...more] = node.body;
	if (more.length || only?.type !== 'ReturnStatement' || !isUndefined(only.argument))
		return undefined;
	const tryPath = path.parentPath.parentPath;
	const block = tryPath.parentPath;
	if (block.node.type !== 'BlockStatement' || !isFunction(block.parent)) return undefined;
	if (block.node.body.at(-1) !== tryPath.node) return undefined;
	return 'emptying a catch that returns undefined, at the end of its function, also returns undefined';
}

/**
 * The code as written, under the switches Stryker has already placed in the tree while walking it
 * (`stryMutAct_…("1") ? mutant : original`, `(stryCov_…("1"), original)`).
 * @param {any} node
 * @returns {any}
 */
function original(node) {
	const isStryker = (/** @type {any} */ n) =>
		n?.type === 'CallExpression' &&
		n.callee.type === 'Identifier' &&
		/^stry(MutAct|Cov)_/.test(n.callee.name);
	if (node.type === 'ConditionalExpression' && isStryker(node.test))
		return original(node.alternate);
	if (node.type === 'SequenceExpression' && isStryker(node.expressions[0]))
		return original(node.expressions.at(-1));
	return node;
}

/**
 * Whether the call `re.test(arg)` or `re.exec(arg)` whose argument is `argPath` (maybe inside
 * `String(…)`) answers the same for '' and for the mutant's text.
 * @param {any} argPath
 */
function testedAlike(argPath) {
	let p = argPath;
	if (
		p.parent.type === 'CallExpression' &&
		p.parent.callee.type === 'Identifier' &&
		p.parent.callee.name === 'String' &&
		p.parent.arguments.length === 1
	)
		p = p.parentPath;
	const call = p.parent;
	if (call.type !== 'CallExpression' || call.arguments[0] !== p.node) return false;
	const callee = call.callee;
	const pattern = callee.type === 'MemberExpression' ? original(callee.object) : undefined;
	if (callee.computed || pattern?.type !== 'RegExpLiteral') return false;
	const re = new RegExp(pattern.pattern, pattern.flags);
	if (callee.property.name === 'test') return re.test('') === re.test(MUTANT_TEXT);
	// exec's answer is the match itself: alike only when neither text matches.
	return callee.property.name === 'exec' && !re.exec('') && !re.exec(MUTANT_TEXT);
}

/**
 * `x ?? ''` (or `x || ''`) whose value is only ever tested by regular expressions that answer the
 * same for '' and for the mutant's text (`re.test`, or `re.exec` when neither matches): the fallback can be any text those patterns agree on.
 * @param {any} path
 */
function fallbackOnlyTested(path) {
	const node = path.node;
	if (node.type !== 'StringLiteral' || node.value !== '') return undefined;
	const or = path.parent;
	if (
		or.type !== 'LogicalExpression' ||
		(or.operator !== '??' && or.operator !== '||') ||
		or.right !== node
	)
		return undefined;
	/** @type {any[]} */
	let uses = [path.parentPath];
	const decl = path.parentPath.parent;
	if (decl.type === 'VariableDeclarator' && decl.init === or && decl.id.type === 'Identifier') {
		const binding = path.parentPath.scope.getBinding(decl.id.name);
		if (!binding || binding.kind !== 'const') return undefined;
		uses = binding.referencePaths;
	}
	if (uses.length === 0) return undefined;
	if (!uses.every(testedAlike)) return undefined;
	return 'a fallback only tested by patterns that answer the same for it and for any text the mutant puts there';
}

/**
 * The default of the first element of `const [a = '', …] = s.split(…)`: split always returns at
 * least one item, so the default is never used.
 * @param {any} path
 */
function splitDefault(path) {
	const node = path.node;
	const assign = path.parent;
	if (assign.type !== 'AssignmentPattern' || assign.right !== node) return undefined;
	const array = path.parentPath.parent;
	if (array.type !== 'ArrayPattern' || array.elements[0] !== assign) return undefined;
	const decl = path.parentPath.parentPath.parent;
	const init = decl.type === 'VariableDeclarator' ? decl.init : undefined;
	if (
		init?.type !== 'CallExpression' ||
		init.callee.type !== 'MemberExpression' ||
		init.callee.computed ||
		init.callee.property.name !== 'split'
	)
		return undefined;
	return 'the first item of a split is always there, so its default is never used';
}

const RULES = [catchFallsThrough, fallbackOnlyTested, splitDefault];

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'equivalent-forms', {
		/** @param {any} path */
		shouldIgnore(path) {
			for (const rule of RULES) {
				const reason = rule(path);
				if (reason) return reason;
			}
			return undefined;
		}
	})
];
