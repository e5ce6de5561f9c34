import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTlsCredentials, tlsDir } from '../../src/engines/smtp/tls.js';
import { AuthLimiter, FailureLimiter } from '../../src/engines/smtp/limiter.js';
import { authAllowed } from '../../src/engines/smtp/server.js';
import { BoundedBuffer, ByteBudget, ConnectionCounter } from '../../src/engines/smtp/capacity.js';
import { sizeLimitOf } from '../../src/engines/smtp/ingress.js';
import { isReturnPath } from '../../src/engines/smtp/bounce.js';
import { onDomain } from '../../src/engines/smtp/ingest.js';

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

describe('AuthLimiter', () => {
  it('counts an IPv6 client by its /64, so changing addresses within it gains no attempts', () => {
    const l = new AuthLimiter();
    for (let i = 1; i <= 20; i++) expect(l.begin(`2001:db8:1:2::${i.toString(16)}`, `u${i}@x.test`)).not.toBeNull();
    expect(l.clientBlocked('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(true);
    expect(l.begin('2001:db8:1:2::99', 'other@x.test')).toBeNull();
    expect(l.clientBlocked('2001:db8:1:3::1')).toBe(false);
    expect(l.clientBlocked('::ffff:192.0.2.1')).toBe(false);
  });

  it('takes back an attempt abandoned for load, and forgets a username\'s failures once it logs in', () => {
    const l = new AuthLimiter();
    for (let i = 0; i < 30; i++) l.begin('192.0.2.1', 'busy@x.test')?.abandoned();
    expect(l.clientBlocked('192.0.2.1')).toBe(false);
    for (let i = 0; i < 4; i++) l.begin('192.0.2.2', 'user@x.test');
    l.begin('192.0.2.3', 'USER@x.test')!.succeeded();
    // Four failures were forgotten: five more fit before the username's limit.
    for (let i = 0; i < 5; i++) expect(l.begin('192.0.2.4', 'user@x.test')).not.toBeNull();
    expect(l.begin('192.0.2.5', 'user@x.test')).toBeNull();
  });
});

describe('relay policy', () => {
  it('lets credentials through only inside TLS, or in the clear on loopback when the setting allows it', () => {
    for (const remoteAddress of ['127.0.0.1', '::ffff:127.0.0.1', '::1', '192.0.2.10']) {
      expect(authAllowed({ secure: false, remoteAddress }, false)).toBe(false);
      expect(authAllowed({ secure: true, remoteAddress }, false)).toBe(true);
    }
    expect(authAllowed({ secure: false, remoteAddress: '127.0.0.1' }, true)).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '::ffff:127.0.0.1' }, true)).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '::1' }, true)).toBe(true);
    expect(authAllowed({ secure: false, remoteAddress: '192.0.2.10' }, true)).toBe(false);
    expect(authAllowed({ secure: false, remoteAddress: '::ffff:192.0.2.10' }, true)).toBe(false);
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

describe('capacity.ts', () => {
  const chunk = (n: number) => Buffer.alloc(n, 'a');

  it('holds a message up to its limit, drops it past the limit and gives the bytes back', () => {
    const budget = new ByteBudget(1000);
    const b = new BoundedBuffer(300, budget);
    b.push(chunk(200));
    expect(budget.inUse).toBe(200);
    b.push(chunk(101));
    expect(b.state).toBe('too-big');
    expect(budget.inUse).toBe(0);
    b.push(chunk(10_000));
    expect(budget.inUse).toBe(0);

    const ok = new BoundedBuffer(300, budget);
    ok.push(chunk(150));
    ok.push(chunk(150));
    expect(ok.take().length).toBe(300);
    // Taken, the message still counts until its answer is given.
    expect(budget.inUse).toBe(300);
    ok.release();
    ok.release();
    expect(budget.inUse).toBe(0);
  });

  it('stops a message the shared budget has no room for, and leaves room for the others', () => {
    const budget = new ByteBudget(500);
    const a = new BoundedBuffer(400, budget);
    const b = new BoundedBuffer(400, budget);
    a.push(chunk(400));
    b.push(chunk(50));
    b.push(chunk(60));
    expect([a.state, b.state]).toEqual(['ok', 'no-room']);
    // Out of room and then over its limit too: refused for its size, for good.
    b.push(chunk(300));
    expect(b.state).toBe('too-big');
    expect(budget.inUse).toBe(400);
    // 100 bytes left: enough for an announced 100, not for 101; a sixteenth (31) without SIZE.
    expect([budget.hasRoomFor(100), budget.hasRoomFor(101), budget.hasRoomFor(null)]).toEqual([true, false, true]);
    const c = new BoundedBuffer(400, budget);
    c.push(chunk(70));
    expect(budget.hasRoomFor(null)).toBe(false);
    a.release();
    c.release();
    expect(budget.inUse).toBe(0);
  });

  it('counts open connections per address, each session once', () => {
    const c = new ConnectionCounter(2);
    expect(c.admit('s1', '192.0.2.1')).toBe(true);
    expect(c.admit('s2', '192.0.2.1')).toBe(true);
    expect(c.admit('s3', '192.0.2.1')).toBe(false);
    expect(c.admit('s4', '192.0.2.2')).toBe(true);
    c.release('s3');
    expect(c.openFrom('192.0.2.1')).toBe(2);
    c.release('s1');
    c.release('s1');
    expect(c.openFrom('192.0.2.1')).toBe(1);
    expect(c.admit('s5', '192.0.2.1')).toBe(true);
  });

  it('takes the smallest of the kind\'s limit, the message limit and the shared budget', () => {
    const MB = 1024 * 1024;
    const config = { SMTP_MAX_MESSAGE_BYTES: 40 * MB, SMTP_MAX_REPORT_BYTES: MB, SMTP_MAX_DMARC_BYTES: 4 * MB, SMTP_MAX_INBOUND_BYTES: 36 * MB, SMTP_UNAUTHENTICATED_BUFFER_BYTES: 64 * MB };
    expect(['report', 'dmarc', 'inbound'].map((k) => sizeLimitOf(config, k as 'report'))).toEqual([MB, 4 * MB, 36 * MB]);
    expect(sizeLimitOf({ ...config, SMTP_MAX_MESSAGE_BYTES: 10 * MB }, 'inbound')).toBe(10 * MB);
    expect(sizeLimitOf({ ...config, SMTP_UNAUTHENTICATED_BUFFER_BYTES: 2 * MB }, 'dmarc')).toBe(2 * MB);
  });
});
