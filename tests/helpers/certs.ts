/**
 * Test certificates for 127.0.0.1 and localhost, made with the openssl command line in a temp dir:
 * a self-signed one, a small CA, a valid leaf it signed, and a leaf it signed that expired in 2020
 * (`openssl ca -startdate/-enddate`, which OpenSSL 3.0 has; `x509 -days` cannot go negative).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pair {
	key: string;
	cert: string;
}

export interface TestCerts {
	dir: string;
	/** Path of the CA certificate, for NODE_EXTRA_CA_CERTS. */
	caFile: string;
	selfSigned: Pair;
	valid: Pair;
	expired: Pair;
	cleanup: () => void;
}

const CONFIG = `
[ req ]
distinguished_name = dn
[ dn ]
[ ca_ext ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ leaf ]
basicConstraints = CA:FALSE
subjectAltName = IP:127.0.0.1,DNS:localhost
[ ca ]
default_ca = test_ca
[ test_ca ]
database = index.txt
serial = serial
new_certs_dir = .
default_md = sha256
policy = any
unique_subject = no
[ any ]
commonName = supplied
`;

export function makeCerts(): TestCerts {
	const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
	if (probe.error || probe.status !== 0)
		throw new Error(
			'The TLS tests make their certificates with the openssl command, which was not found. Install it (apt-get install -y openssl).'
		);
	const dir = mkdtempSync(join(tmpdir(), 'playground-certs-'));
	const run = (...args: string[]) =>
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
	writeFileSync(join(dir, 'ossl.cnf'), CONFIG);
	writeFileSync(join(dir, 'index.txt'), '');
	writeFileSync(join(dir, 'serial'), '10\n');
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	const cfg = ['-config', 'ossl.cnf'];
	run(
		'req',
		...cfg,
		'-x509',
		...ec,
		'-keyout',
		'self.key',
		'-out',
		'self.pem',
		'-days',
		'2',
		'-subj',
		'/CN=127.0.0.1',
		'-extensions',
		'leaf'
	);
	run(
		'req',
		...cfg,
		'-x509',
		...ec,
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-days',
		'2',
		'-subj',
		'/CN=Playground test CA',
		'-extensions',
		'ca_ext'
	);
	run(
		'req',
		...cfg,
		'-new',
		...ec,
		'-keyout',
		'valid.key',
		'-out',
		'valid.csr',
		'-subj',
		'/CN=127.0.0.1'
	);
	run(
		'x509',
		'-req',
		'-in',
		'valid.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-set_serial',
		'2',
		'-days',
		'2',
		'-extfile',
		'ossl.cnf',
		'-extensions',
		'leaf',
		'-out',
		'valid.pem'
	);
	run(
		'req',
		...cfg,
		'-new',
		...ec,
		'-keyout',
		'expired.key',
		'-out',
		'expired.csr',
		'-subj',
		'/CN=127.0.0.1'
	);
	run(
		'ca',
		'-batch',
		...cfg,
		'-cert',
		'ca.pem',
		'-keyfile',
		'ca.key',
		'-in',
		'expired.csr',
		'-out',
		'expired.pem',
		'-startdate',
		'20200101000000Z',
		'-enddate',
		'20200102000000Z',
		'-extensions',
		'leaf',
		'-notext'
	);
	const pair = (name: string): Pair => ({
		key: readFileSync(join(dir, `${name}.key`), 'utf8'),
		cert: readFileSync(join(dir, `${name}.pem`), 'utf8')
	});
	return {
		dir,
		caFile: join(dir, 'ca.pem'),
		selfSigned: pair('self'),
		valid: pair('valid'),
		expired: pair('expired'),
		cleanup: () => rmSync(dir, { recursive: true, force: true })
	};
}
