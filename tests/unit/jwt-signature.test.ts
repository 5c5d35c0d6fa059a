/**
 * The JWT signature check (oauth/jwt-signature.ts): jose with an allow-list of asymmetric
 * algorithms, its error codes in plain words, and the claims reported apart from the signature.
 */
import { describe, expect, test } from 'vitest';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from 'jose';
import {
	ASYMMETRIC_ALGS,
	claimFindings,
	parseJwks,
	signatureFinding,
	verifySignature
} from '$lib/oauth/jwt-signature';

const JWKS_URI = 'https://issuer.test/jwks';
const b64url = (s: string | Uint8Array) => Buffer.from(s).toString('base64url');

/**
 * An RSA key pair for `kid`, made once per kid in this file (making one costs about a second of
 * CPU), and its public JWK, a fresh object on every call.
 */
const pairs = new Map<string, Promise<CryptoKeyPair>>();
async function rsa(kid = 'test-1') {
	if (!pairs.has(kid)) pairs.set(kid, generateKeyPair('RS256', { extractable: true }));
	const { privateKey, publicKey } = await pairs.get(kid)!;
	const jwk: JWK = { ...(await exportJWK(publicKey)), kid, use: 'sig', alg: 'RS256' };
	return { privateKey, publicKey, jwk };
}

async function signed(
	privateKey: CryptoKey,
	header: Record<string, unknown> = { alg: 'RS256', kid: 'test-1', typ: 'at+jwt' },
	claims: Record<string, unknown> = { iss: 'https://issuer.test', sub: 'u1' }
) {
	return new SignJWT(claims)
		.setProtectedHeader(header as { alg: string })
		.setExpirationTime('1h')
		.sign(privateKey);
}

/** The token with one character in the middle of its signature changed (the last may leave the bytes alone). */
function tamperSignature(token: string): string {
	const [h, p, s] = token.split('.') as [string, string, string];
	const i = Math.floor(s.length / 2);
	const c = s[i] === 'A' ? 'B' : 'A';
	return `${h}.${p}.${s.slice(0, i)}${c}${s.slice(i + 1)}`;
}

describe('verifySignature', () => {
	test('a token signed with the key the JWKS names is valid, with its kid and alg', async () => {
		const { privateKey, jwk } = await rsa();
		const v = await verifySignature(await signed(privateKey), { keys: [jwk] });
		expect(v).toEqual({ valid: true, kid: 'test-1', alg: 'RS256' });
		const f = signatureFinding(v, JWKS_URI);
		expect(f.code).toBe('jwt-signature-valid');
		expect(f.message).toContain('test-1');
		expect(f.message).toContain(JWKS_URI);
	});

	test('tampering: a middle character of the signature changed is invalid', async () => {
		const { privateKey, jwk } = await rsa();
		const token = tamperSignature(await signed(privateKey));
		const v = await verifySignature(token, { keys: [jwk] });
		expect(v).toMatchObject({ valid: false, code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
		expect(signatureFinding(v, JWKS_URI)).toMatchObject({
			level: 'error',
			code: 'jwt-signature-invalid'
		});
	});

	test('a payload changed after signing is invalid', async () => {
		const { privateKey, jwk } = await rsa();
		const [h, , s] = (await signed(privateKey)).split('.');
		const forged = `${h}.${b64url(JSON.stringify({ iss: 'https://issuer.test', sub: 'admin' }))}.${s}`;
		expect(await verifySignature(forged, { keys: [jwk] })).toMatchObject({ valid: false });
	});

	test('a JWKS without the token’s kid: no matching key', async () => {
		const { privateKey } = await rsa();
		const other = await rsa('other-key');
		const v = await verifySignature(await signed(privateKey), { keys: [other.jwk] });
		expect(v).toMatchObject({ valid: false, code: 'ERR_JWKS_NO_MATCHING_KEY', kid: 'test-1' });
		expect(signatureFinding(v, JWKS_URI).code).toBe('jwt-no-matching-key');
	});

	test('key confusion: an HS256 token signed with the public key, published as an oct key, is refused', async () => {
		const { publicKey, jwk } = await rsa();
		const pem = await exportSPKI(publicKey);
		const secret = new TextEncoder().encode(pem);
		const token = await new SignJWT({ iss: 'https://issuer.test', sub: 'admin' })
			.setProtectedHeader({ alg: 'HS256', kid: 'test-1' })
			.sign(secret);
		const oct: JWK = { kty: 'oct', k: b64url(secret), kid: 'test-1' };
		const v = await verifySignature(token, { keys: [jwk, oct] });
		expect(v).toMatchObject({ valid: false, code: 'ERR_JOSE_ALG_NOT_ALLOWED', alg: 'HS256' });
		expect(signatureFinding(v, JWKS_URI).code).toBe('jwt-alg-not-allowed');
	});

	test('alg none: an unsigned token is refused', async () => {
		const { jwk } = await rsa();
		const token = `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify({ iss: 'https://issuer.test', sub: 'admin' }))}.`;
		const v = await verifySignature(token, { keys: [jwk] });
		expect(v.valid).toBe(false);
		expect(signatureFinding(v, JWKS_URI).level).toBe('error');
		expect(['jwt-alg-not-allowed', 'jwt-malformed']).toContain(signatureFinding(v, JWKS_URI).code);
	});

	test('the allow-list holds only asymmetric algorithms', () => {
		for (const alg of ASYMMETRIC_ALGS)
			expect(alg).toMatch(/^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/);
		expect(ASYMMETRIC_ALGS).not.toContain('none');
	});

	test('garbage is malformed, never a throw', async () => {
		const { jwk } = await rsa();
		const v = await verifySignature('a.b.c', { keys: [jwk] });
		expect(v.valid).toBe(false);
		expect(signatureFinding(v, JWKS_URI).level).toBe('error');
	});
});

describe('jose error codes in plain words', () => {
	test.each([
		['ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'jwt-signature-invalid'],
		['ERR_JWKS_NO_MATCHING_KEY', 'jwt-no-matching-key'],
		['ERR_JWKS_MULTIPLE_MATCHING_KEYS', 'jwt-multiple-matching-keys'],
		['ERR_JOSE_ALG_NOT_ALLOWED', 'jwt-alg-not-allowed'],
		['ERR_JWKS_INVALID', 'jwks-invalid'],
		['ERR_JWS_INVALID', 'jwt-malformed'],
		['ERR_SOMETHING_ELSE', 'jwt-malformed']
	])('%s → %s', (code, finding) => {
		const f = signatureFinding(
			{ valid: false, code, kid: 'k9', alg: 'RS256', detail: 'jose said so' },
			JWKS_URI
		);
		expect(f).toMatchObject({ level: 'error', code: finding });
		expect(f.ref).toMatch(/RFC \d+/);
	});
});

describe('parseJwks', () => {
	test('a JSON object with a keys array is a key set; anything else is not', () => {
		expect(parseJwks('{"keys":[]}')).toEqual({ ok: true, jwks: { keys: [] } });
		for (const body of ['', '[]', 'null', '{"keys":{}}', '<html>', '{"key":[]}'])
			expect(parseJwks(body).ok).toBe(false);
	});
});

describe('claims, apart from the signature', () => {
	const NOW = Date.parse('2026-03-14T09:00:00Z');
	const token = (header: Record<string, unknown>, payload: Record<string, unknown>) =>
		`${b64url(JSON.stringify({ alg: 'RS256', ...header }))}.${b64url(JSON.stringify(payload))}.sig`;
	const codes = (fs: { code: string; level: string }[]) => fs.map((f) => `${f.level}:${f.code}`);

	test('iss, exp and typ each get their own finding', () => {
		const t = token({ typ: 'at+jwt' }, { iss: 'https://issuer.test', exp: NOW / 1000 + 60 });
		expect(
			codes(claimFindings(t, { issuer: 'https://issuer.test', kind: 'access_token', now: NOW }))
		).toEqual([`info:${'jwt-issuer-ok'}`, `info:${'jwt-not-expired'}`, `info:${'jwt-typ'}`]);
	});

	test('another issuer, an expired token, and an access token without at+jwt are each said', () => {
		const t = token({ typ: 'JWT' }, { iss: 'https://evil.test', exp: NOW / 1000 - 1 });
		expect(
			codes(claimFindings(t, { issuer: 'https://issuer.test', kind: 'access_token', now: NOW }))
		).toEqual([
			`error:${'jwt-issuer-mismatch'}`,
			`warning:${'jwt-expired'}`,
			`warning:${'jwt-typ'}`
		]);
	});

	test('no issuer known: not compared; no exp: said', () => {
		const t = token({}, { iss: 'https://issuer.test' });
		expect(codes(claimFindings(t, { issuer: '', kind: 'id_token', now: NOW }))).toEqual([
			`info:${'jwt-issuer-not-checked'}`,
			`warning:${'jwt-no-expiry'}`,
			`info:${'jwt-typ'}`
		]);
	});

	test('an ID token typed at+jwt is a warning; a pasted one is only named', () => {
		const t = token({ typ: 'at+jwt' }, { iss: 'x', exp: NOW / 1000 + 5 });
		expect(claimFindings(t, { issuer: '', kind: 'id_token', now: NOW })[2]!.level).toBe('warning');
		expect(claimFindings(t, { issuer: '', kind: 'pasted', now: NOW })[2]!.level).toBe('info');
		expect(claimFindings('opaque', { issuer: '', kind: 'pasted', now: NOW })).toEqual([]);
	});
});

describe('the verdict names only what the header holds', () => {
	const header = (h: Record<string, unknown>) =>
		`${b64url(JSON.stringify(h))}.${b64url(JSON.stringify({ iss: 'x' }))}.${b64url('sig')}`;

	test('a header without kid or alg gives a verdict without them', async () => {
		const { jwk } = await rsa();
		const v = await verifySignature(header({ typ: 'JWT' }), { keys: [jwk] });
		expect(v.valid).toBe(false);
		expect(Object.keys(v)).not.toContain('kid');
		expect(Object.keys(v)).not.toContain('alg');
	});

	test('a kid or alg that is not a string is not named', async () => {
		const { jwk } = await rsa();
		const v = await verifySignature(header({ alg: 7, kid: 5 }), { keys: [jwk] });
		expect(v.valid).toBe(false);
		expect(Object.keys(v)).not.toContain('kid');
		expect(Object.keys(v)).not.toContain('alg');
	});

	test('white space around a pasted token is ignored', async () => {
		const { privateKey, jwk } = await rsa();
		const token = await signed(privateKey);
		expect(await verifySignature(`  ${token}\n`, { keys: [jwk] })).toEqual({
			valid: true,
			kid: 'test-1',
			alg: 'RS256'
		});
	});

	test('a key jose refuses without a code of its own gives ERR_UNKNOWN, and is named as not checked', async () => {
		const { privateKey, jwk } = await rsa();
		const short: JWK = { ...jwk, n: 'AQAB' };
		const v = await verifySignature(await signed(privateKey), { keys: [short] });
		expect(v).toMatchObject({ valid: false, code: 'ERR_UNKNOWN', kid: 'test-1', alg: 'RS256' });
		expect(signatureFinding(v, JWKS_URI).code).toBe('jwt-malformed');
	});
});

describe('the signature finding', () => {
	test('a valid signature is info', () => {
		expect(signatureFinding({ valid: true, kid: 'k', alg: 'ES256' }, JWKS_URI)).toMatchObject({
			level: 'info',
			ref: 'RFC 7515 §5.2'
		});
	});

	test('a refusal names the alg and kid it was about, or that there was no alg', () => {
		const f = signatureFinding(
			{
				valid: false,
				code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
				kid: 'k9',
				alg: 'PS384',
				detail: ''
			},
			JWKS_URI
		);
		expect(f.message).toContain('PS384');
		expect(f.message).toContain('k9');
		const none = signatureFinding(
			{ valid: false, code: 'ERR_JWKS_NO_MATCHING_KEY', detail: '' },
			JWKS_URI
		);
		expect(none.message).toContain('no alg');
	});
});

describe('claims: references, the boundary of exp, and typ', () => {
	const NOW = Date.parse('2026-03-14T09:00:00Z');
	const token = (header: Record<string, unknown>, payload: Record<string, unknown>) =>
		`${b64url(JSON.stringify({ alg: 'RS256', ...header }))}.${b64url(JSON.stringify(payload))}.sig`;
	const refs = (t: string, issuer: string, kind: 'access_token' | 'id_token' | 'pasted') =>
		claimFindings(t, { issuer, kind, now: NOW }).map((f) => f.ref);

	test('iss and exp refer to RFC 7519 §4.1.1 and §4.1.4, typ to RFC 9068 §2.1', () => {
		const live = token({ typ: 'at+jwt' }, { iss: 'https://issuer.test', exp: NOW / 1000 + 60 });
		expect(refs(live, 'https://issuer.test', 'access_token')).toEqual([
			'RFC 7519 §4.1.1',
			'RFC 7519 §4.1.4',
			'RFC 9068 §2.1'
		]);
		expect(refs(live, '', 'id_token')).toEqual([
			'RFC 7519 §4.1.1',
			'RFC 7519 §4.1.4',
			'RFC 9068 §2.1'
		]);
		const old = token({ typ: 'JWT' }, { exp: NOW / 1000 - 60 });
		expect(refs(old, '', 'access_token')).toEqual([
			'RFC 7519 §4.1.1',
			'RFC 7519 §4.1.4',
			'RFC 9068 §2.1'
		]);
		expect(refs(token({}, {}), '', 'pasted')[1]).toBe('RFC 7519 §4.1.4');
	});

	test('a token whose exp is this very millisecond has expired', () => {
		const t = token({}, { exp: NOW / 1000 });
		expect(claimFindings(t, { issuer: '', kind: 'pasted', now: NOW })[1]!.code).toBe('jwt-expired');
	});

	test.each([['application/at+jwt'], ['AT+JWT']])('typ %s is an access token’s', (typ) => {
		const t = token({ typ }, { exp: NOW / 1000 + 60 });
		const [, , f] = claimFindings(t, { issuer: '', kind: 'access_token', now: NOW });
		expect(f).toMatchObject({ level: 'info', code: 'jwt-typ' });
	});

	test.each([[['at+jwt']], ['not-at+jwt'], ['at+jwt2'], [42]])(
		'typ %j is not at+jwt: an access token is warned about',
		(typ) => {
			const t = token({ typ }, { exp: NOW / 1000 + 60 });
			const [, , f] = claimFindings(t, { issuer: '', kind: 'access_token', now: NOW });
			expect(f).toMatchObject({ level: 'warning', code: 'jwt-typ' });
		}
	);
});
