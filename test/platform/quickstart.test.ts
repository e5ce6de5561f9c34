import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * The README's offline quick start, run exactly as written (the block between the `quickstart`
 * markers) with bash against a fresh service in its default sandbox mode: MAIL_TRANSPORT=capture,
 * so DOMAIN_VERIFICATION=trust and WEBHOOK_ALLOW_PRIVATE follow from it. Only the addresses change:
 * the server's own URL for localhost:3000, a free port for the receiver's 4000.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const block = /<!-- quickstart -->\s*```sh\n([\s\S]*?)```\s*<!-- \/quickstart -->/.exec(README)?.[1];

let s: TestServer;
let dir: string;
beforeAll(async () => {
  // The sandbox is the default: the test server's own defaults (DNS verification, free plan) are undone.
  s = await startTestServer({ env: { DOMAIN_VERIFICATION: '', DEFAULT_PLAN: '', DEFAULT_VERIFICATION_CREDITS: '' } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-quickstart-'));
  mkdirSync(path.join(dir, '.data'));
  writeFileSync(path.join(dir, '.data', 'admin-token'), `${ADMIN_TOKEN}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function bash(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // The project's Node 24 first on the PATH, as npm scripts have it.
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
    execFile('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, timeout: 90_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('the README has the quick start block', () => {
  expect(block).toBeDefined();
  expect(block).toContain('http://localhost:3000/v1');
});

it('runs as written: a domain, an email, its captured content, a webhook and its events', async () => {
  const port = await freePort();
  const script = block!.replaceAll('http://localhost:3000', s.url).replaceAll('4000', String(port));
  const { code, stdout, stderr } = await bash(script, dir);
  expect({ code, stderr: stderr.slice(0, 2000) }).toEqual({ code: 0, stderr: '' });
  // 2: the 202 and its message id; 3: the captured text; 4: the events the receiver got.
  expect(stdout).toMatch(/^HTTP\/1\.1 202/m);
  expect(stdout).toMatch(/^x-message-id: \w+/im);
  expect(stdout).toContain('It works.');
  expect(stdout).toContain('"type":"activity.sent"');
  expect(stdout).toContain('"type":"activity.delivered"');
  // And the service agrees: the domain is verified (trusted), the plan is the default one.
  const domains = await s.rest('GET', '/domains');
  expect(domains.body.data).toEqual([expect.objectContaining({ name: 'example.com', is_verified: true })]);
}, 120_000);
