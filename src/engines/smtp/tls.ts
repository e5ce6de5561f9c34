import { X509Certificate, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import selfsigned from 'selfsigned';
import type { Config } from '../../config/index.js';


export interface TlsCredentials {
  key: string;
  cert: string;
  /** `config` when read from SMTP_TLS_CERT/SMTP_TLS_KEY, `stored` or `generated` for the self-signed one. */
  source: 'config' | 'stored' | 'generated';
}

const VALID_DAYS = 5 * 365;

export const tlsDir = (config: Pick<Config, 'DATA_DIR'>) => path.resolve(config.DATA_DIR, 'smtp-tls');

function readPair(dir: string): { key: string; cert: string } | null {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  if (!existsSync(keyFile) || !existsSync(certFile)) return null;
  const pair = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  // An expired or unreadable self-signed certificate is replaced rather than served.
  try {
    return new Date(new X509Certificate(pair.cert).validTo).getTime() > Date.now() ? pair : null;
  } catch {
    return null;
  }
}

async function selfSigned(host: string): Promise<{ key: string; cert: string }> {
  const now = new Date();
  const out = await selfsigned.generate([{ name: 'commonName', value: host }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + VALID_DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: host },
          ...(host === 'localhost' ? [] : [{ type: 2 as const, value: 'localhost' }]),
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: out.private, cert: out.cert };
}

/**
 * The STARTTLS certificate: SMTP_TLS_CERT/SMTP_TLS_KEY when set, otherwise a self-signed one made
 * at first start and kept in DATA_DIR/smtp-tls (key mode 0600) for every later start. Several
 * processes may start at once: each writes its pair into a private directory and renames it into
 * place, so the pair on disk always belongs together and the first rename wins.
 */
export async function loadTlsCredentials(config: Pick<Config, 'DATA_DIR' | 'SMTP_TLS_CERT' | 'SMTP_TLS_KEY' | 'SMTP_PUBLIC_HOST'>): Promise<TlsCredentials> {
  if (config.SMTP_TLS_CERT || config.SMTP_TLS_KEY) {
    if (!config.SMTP_TLS_CERT || !config.SMTP_TLS_KEY) throw new Error('SMTP_TLS_CERT and SMTP_TLS_KEY must be set together');
    return { cert: readFileSync(config.SMTP_TLS_CERT, 'utf8'), key: readFileSync(config.SMTP_TLS_KEY, 'utf8'), source: 'config' };
  }
  const dir = tlsDir(config);
  const stored = readPair(dir);
  if (stored) return { ...stored, source: 'stored' };

  const pair = await selfSigned(config.SMTP_PUBLIC_HOST);
  const staging = `${dir}.${randomBytes(6).toString('hex')}`;
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(staging, 'key.pem'), pair.key, { mode: 0o600 });
  writeFileSync(path.join(staging, 'cert.pem'), pair.cert, { mode: 0o644 });
  const meanwhile = readPair(dir);
  if (meanwhile) {
    rmSync(staging, { recursive: true, force: true });
    return { ...meanwhile, source: 'stored' };
  }
  // Only an expired or broken pair can stand in the way now.
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
    return { ...pair, source: 'generated' };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    const theirs = readPair(dir);
    if (theirs) return { ...theirs, source: 'stored' };
    throw err;
  }
}
