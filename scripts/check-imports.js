/**
 * Checks the direction of imports in src/ with dependency-cruiser and the rules in
 * .dependency-cruiser.js; part of `npm run check` (after `svelte-kit sync`, which writes the
 * aliases this reads). Prints how many modules and imports it saw, so an import the check cannot
 * follow does not go unnoticed, and exits 1 naming the rule of every violation.
 *
 * Usage: node scripts/check-imports.js
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { filesUnder, sameNames } from './same-names.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const { default: config } = await import('../.dependency-cruiser.js');
const forbidden = config.forbidden ?? [];
const options = config.options ?? {};

/**
 * SvelteKit's aliases ($lib, kit.alias entries) as enhanced-resolve aliases. They live in the
 * `paths` of .svelte-kit/tsconfig.json, relative to that file.
 */
function svelteKitAliases() {
	const file = resolve(root, '.svelte-kit/tsconfig.json');
	let paths;
	try {
		paths = JSON.parse(readFileSync(file, 'utf8')).compilerOptions.paths;
	} catch (e) {
		console.error(`check-imports: cannot read ${relative(root, file)} (run svelte-kit sync first)`);
		throw e;
	}
	/** @type {Record<string, string>} */
	const alias = {};
	for (const [key, [target]] of Object.entries(paths)) {
		alias[key.replace(/\/\*$/, '')] ??= resolve(dirname(file), target.replace(/\/\*$/, ''));
	}
	return alias;
}

const { output } = await cruise(
	['src'],
	{
		...options,
		ruleSet: { forbidden },
		validate: true,
		outputType: 'json'
	},
	{ alias: svelteKitAliases() }
);
/** @type {import('dependency-cruiser').ICruiseResult} */
const result = typeof output === 'string' ? JSON.parse(output) : output;

const ours = result.modules.filter((m) => m.source.startsWith('src/'));
const edges = ours.flatMap((m) => m.dependencies.filter((d) => d.resolved.startsWith('src/')));
const fromSvelte = ours
	.filter((m) => m.source.endsWith('.svelte'))
	.flatMap((m) => m.dependencies.filter((d) => d.resolved.startsWith('src/')));
console.log(
	`check-imports: ${ours.length} modules in src/ and ${edges.length} imports between them ` +
		`(${fromSvelte.length} from .svelte files); ${forbidden.length} rules`
);

const repeated = sameNames(filesUnder(root, 'src/lib'));
for (const [name, paths] of repeated) {
	console.error(`check-imports: the file stem ${name} is in two folders: ${paths.join(', ')}`);
}
if (repeated.size > 0) process.exitCode = 1;

const errors = result.summary.violations.filter((v) => v.rule.severity === 'error');
const exempt = options.knownViolations ?? [];
for (const known of exempt) {
	const from = ours.find((m) => m.source === known.from);
	if (!from?.dependencies.some((d) => d.resolved === known.to)) {
		console.log(
			`check-imports: the exemption ${known.from} → ${known.to} matches no import any more; remove it from .dependency-cruiser.js`
		);
	}
}
if (errors.length === 0) {
	console.log(
		`check-imports: no file stem of src/lib is in two folders (a worker beside its module aside)`
	);
	console.log(
		`check-imports: no violations (${exempt.length} exempt import${exempt.length === 1 ? '' : 's'} listed in .dependency-cruiser.js)`
	);
} else {
	const comments = new Map(forbidden.map((r) => [r.name, r.comment]));
	for (const v of errors) {
		console.error(`check-imports: ${v.rule.name}: ${v.from} → ${v.to}`);
		console.error(`  ${comments.get(v.rule.name) ?? ''}`);
	}
	console.error(`check-imports: ${errors.length} violation${errors.length === 1 ? '' : 's'}`);
	process.exit(1);
}
