import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTlsCredentials, tlsDir } from '../../src/modules/smtp/tls.js';
import { FailureLimiter } from '../../src/modules/smtp/limiter.js';
import { authAllowed } from '../../src/modules/smtp/server.js';
import { isReturnPath } from '../../src/modules/bounces/bounce.js';
import { onDomain } from '../../src/modules/smtp/ingest.js';

describe('tls.ts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-tls-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const config = () => ({ DATA_DIR: dir, SMTP_PUBLIC_HOST: 'smtp.example.test', SMTP_TLS_CERT: undefined, SMTP_TLS_KEY: undefined });

  it('generates a self-signed pair at first start, key 0600, and reuses it afterwards', async () => {
    const first = await loadTlsCredentials(config());
    expect(first.source).toBe('generated');
    const keyFile = path.join(tlsDir(config()), 'key.pem');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toBe(first.key);
    const cert = new X509Certificate(first.cert);
    expect(cert.subject).toContain('CN=smtp.example.test');
    expect(cert.checkPrivateKey(createPrivateKey(first.key))).toBe(true);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 4 * 365 * 86_400_000);

    const second = await loadTlsCredentials(config());
    expect(second).toEqual({ key: first.key, cert: first.cert, source: 'stored' });
  });

  it('replaces a stored certificate that cannot be read', async () => {
    const first = await loadTlsCredentials(config());
    writeFileSync(path.join(tlsDir(config()), 'cert.pem'), 'garbage');
    const again = await loadTlsCredentials(config());
    expect(again.source).toBe('generated');
    expect(again.cert).not.toBe(first.cert);
  });

  it('reads SMTP_TLS_CERT and SMTP_TLS_KEY when both are set, and refuses one without the other', async () => {
    const made = await loadTlsCredentials(config());
    const certFile = path.join(dir, 'c.pem');
    const keyFile = path.join(dir, 'k.pem');
    writeFileSync(certFile, made.cert);
    writeFileSync(keyFile, made.key);
    const given = await loadTlsCredentials({ ...config(), DATA_DIR: path.join(dir, 'other'), SMTP_TLS_CERT: certFile, SMTP_TLS_KEY: keyFile });
    expect(given).toEqual({ cert: made.cert, key: made.key, source: 'config' });
    await expect(loadTlsCredentials({ ...config(), SMTP_TLS_CERT: certFile })).rejects.toThrow(/together/);
  });
});

describe('limiter.ts', () => {
  it('blocks a key at max failures within the window and forgets them after it', () => {
    let now = 1_000_000;
    const l = new FailureLimiter({ max: 3, windowMs: 60_000 }, () => now);
    l.fail('a');
    l.fail('a');
    expect(l.blocked('a')).toBe(false);
    now += 30_000;
    l.fail('a');
    expect(l.blocked('a')).toBe(true);
    expect(l.blocked('b')).toBe(false);
    // The first two fall out of the window: one failure left.
    now += 30_001;
    expect(l.blocked('a')).toBe(false);
    l.fail('a');
    l.fail('a');
    expect(l.blocked('a')).toBe(true);
    l.reset('a');
    expect(l.blocked('a')).toBe(false);
  });
});

describe('relay policy', () => {
  it('lets credentials through in the clear only on loopback', () => {
    expect(authAllowed({ secure: false, remoteAddress: '127.0.0.1' })).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '::ffff:127.0.0.1' })).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '::1' })).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '192.0.2.10' })).toBe(false);
    expect(authAllowed({ secure: true, remoteAddress: '192.0.2.10' })).toBe(true);
  });

  it('takes the domain and its subdomains as the sender domain, nothing else', () => {
    expect(onDomain('a@example.com', 'example.com')).toBe(true);
    expect(onDomain('a@News.Example.com', 'example.com')).toBe(true);
    expect(onDomain('a@badexample.com', 'example.com')).toBe(false);
    expect(onDomain('a@example.com.evil.net', 'example.com')).toBe(false);
    expect(onDomain('example.com', 'example.com')).toBe(false);
  });

  it('knows return-path addresses', () => {
    expect(isReturnPath('bounces+0123456789abcdef@rp.example.com')).toBe(true);
    expect(isReturnPath('Bounces+0123456789ABCDEF@rp.example.com')).toBe(true);
    expect(isReturnPath('bounces+abc@rp.example.com')).toBe(false);
    expect(isReturnPath('bounces@example.com')).toBe(false);
  });
});
