/**
 * The script for a code kept for it ("Get a code for the script"): one code exchange with `$CODE`,
 * then the reads after it, and the command the page prints, run in bash as printed.
 */
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, test } from 'vitest';
import { codeScriptCommand, toCodeScript } from '$lib/exchange/curl';
import type { Exchange } from '$lib/exchange/types';
import { CODE, SECRET, TOKENS, transcript } from './transcript';

const NO_RC = ['--norc', '--noprofile'];
const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' });

/** The code the page holds for the script: its own, not the transcript's. */
const NEW_CODE = 'new-code/for+the=script';
const FILE = 'oauth-playground-code-2026-01-02-03-04-05.sh';

let flow: Exchange[] = [];
beforeEach(() => {
	const [consent, callback, exchange, userinfo, refresh, api403, failed] = transcript() as [
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange
	];
	const again = (ex: Exchange, n: number): Exchange => ({ ...ex, id: `${ex.id}-${n}` });
	const revoke: Exchange = {
		...refresh,
		id: 'revoke-1',
		step: 'revoke',
		request: {
			...refresh.request,
			url: refresh.request.url.replace(/token$/, 'revoke'),
			body: 'token=rrrrrrrrrrrr&client_id=sandbox-rw&client_secret=<redacted>'
		}
	};
	// Two earlier code exchanges ("Prepare a new one", then consent again), a user-info read between
	// them, a refresh, a write, a read that failed, the user-info read again, a revocation.
	flow = [
		consent,
		callback,
		exchange,
		userinfo,
		again(consent, 2),
		again(callback, 2),
		again(exchange, 2),
		refresh,
		api403,
		failed,
		again(userinfo, 2),
		revoke
	];
});

/** Runs the command as printed, curl replaced by a function that records what it was asked to send. */
function runAsPrinted(script: string, command: string, env: Record<string, string>) {
	const fake = `curl() { printf 'sent %s\\n' "$*"; printf '{"access_token":"AT-new","token_type":"Bearer","refresh_token":"RT-new"}\\n'; }`;
	return spawnSync('bash', [...NO_RC, '-c', `${fake}\nexport -f curl\ncd "$DIR"\n${command}`], {
		env: { ...baseEnv(), ...env },
		encoding: 'utf8'
	});
}

describe('the script for a code', () => {
	test('one token request with $CODE, then the transcript’s reads, each once: no refresh, no revocation, no write', () => {
		const built = toCodeScript(flow)!;
		// The latest code exchange that got tokens is the one it repeats.
		expect(built.from).toBe(7);
		const script = built.script;
		expect(script.match(/grant_type=authorization_code/g)).toHaveLength(2); // sent once, printed once when skipped
		expect(script.match(/--data-urlencode "code=\$CODE"/g)).toHaveLength(2);
		expect(script).not.toMatch(/grant_type=refresh_token|refresh_token=|\/revoke|edit-tag/);
		const steps = script.match(/^# ── \d+\. [^:]+: \S+ \S+/gm);
		expect(steps).toEqual([
			'# ── 1. Code exchange: POST http://127.0.0.1:5173/sandbox/oauth2/token',
			'# ── 2. User-info: GET http://127.0.0.1:5173/sandbox/reader/api/0/user-info',
			'# ── 3. API call: GET http://127.0.0.1:5999/reader/api/0/unread-count?output=json'
		]);
		expect(spawnSync('bash', ['-n'], { input: script }).status).toBe(0);
	});

	test('the command names every variable the script checks for, and runs as printed: the code sent once, the reads with its token', () => {
		const built = toCodeScript(flow)!;
		const command = codeScriptCommand(built.env, NEW_CODE, FILE);
		expect(command).toBe(
			`RUN_SPENDING_STEPS=1 CLIENT_SECRET="$CLIENT_SECRET" CODE='${NEW_CODE}' bash ${FILE}`
		);
		// Every variable the script stops for when the spending steps run is set by the command: the
		// checks before the first step, those of the branch taken with RUN_SPENDING_STEPS=1 included.
		const checks = built.script.slice(0, built.script.indexOf('# ──'));
		const spendingChecks = checks.replace(/^else\n(\t.*\n)*/m, '');
		const guarded = [...spendingChecks.matchAll(/^\t?: "\$\{(\w+):\?/gm)].map((m) => m[1]!);
		expect(guarded).toEqual(['CLIENT_SECRET', 'CODE']);
		for (const v of guarded) expect(command).toContain(`${v}=`);

		const dir = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
		spawnSync('bash', ['-c', 'cat > "$0"', `${dir}/${FILE}`], { input: built.script });
		// Only the secret comes from the environment, as the page says.
		const r = runAsPrinted(built.script, command, { DIR: dir, CLIENT_SECRET: 's3cret' });
		spawnSync('rm', ['-r', dir]);
		expect(r.stderr).toBe('');
		expect(r.status).toBe(0);
		const sent = r.stdout.match(/^sent .*/gm)!;
		expect(sent).toHaveLength(3);
		expect(sent[0]).toContain(`code=${NEW_CODE}`);
		expect(sent[0]).toContain('client_secret=s3cret');
		expect(sent.slice(1).every((s) => s.includes('Authorization: Bearer AT-new'))).toBe(true);
		expect(r.stdout.match(/code=new-code/g)).toHaveLength(1);
	});

	test('no secret, token or earlier code in the script or the command', () => {
		const built = toCodeScript(flow)!;
		const command = codeScriptCommand(built.env, NEW_CODE, FILE);
		for (const value of [SECRET, CODE, ...TOKENS]) {
			expect(built.script).not.toContain(value);
			expect(command).not.toContain(value);
		}
	});

	test('a code exchange with Basic credentials and a PKCE verifier: the command reads each from the environment', () => {
		const exchange = flow[6]!;
		const basic: Exchange = {
			...exchange,
			request: {
				...exchange.request,
				headers: [...exchange.request.headers, ['Authorization', 'Basic <redacted>']],
				body: `code=${CODE}&redirect_uri=x&scope=&grant_type=authorization_code&code_verifier=vvvv`
			}
		};
		const built = toCodeScript([basic])!;
		expect(built.env).toEqual(['CLIENT_ID', 'CLIENT_SECRET', 'CODE', 'CODE_VERIFIER']);
		expect(codeScriptCommand(built.env, 'c', FILE)).toBe(
			`RUN_SPENDING_STEPS=1 CLIENT_ID="$CLIENT_ID" CLIENT_SECRET="$CLIENT_SECRET" CODE='c' CODE_VERIFIER="$CODE_VERIFIER" bash ${FILE}`
		);
	});

	test('the code’s own exchange, built by the playground and not sent, is the one it sends, with or without a code exchange in the transcript', () => {
		const exchange = flow[6]!;
		const own: Exchange = {
			...exchange,
			id: 'own',
			request: {
				...exchange.request,
				body: exchange.request.body
					.replace(CODE, NEW_CODE)
					.replace('redirect_uri=', 'redirect_uri=own')
			},
			response: undefined
		};
		for (const transcript of [flow, flow.filter((ex) => ex.step !== 'exchange')]) {
			const built = toCodeScript(transcript, own)!;
			expect(built.from).toBeUndefined();
			expect(built.script.match(/redirect_uri=own/g)).toHaveLength(2); // sent once, printed once when skipped
			expect(built.script.match(/--data-urlencode "code=\$CODE"/g)).toHaveLength(2);
			expect(built.script).not.toContain(NEW_CODE);
			expect(built.script).toMatch(/^# ── 2\. User-info: GET /m);
		}
	});

	test('no code exchange in the transcript: no script', () => {
		expect(toCodeScript(flow.filter((ex) => ex.step !== 'exchange'))).toBeUndefined();
	});
});
