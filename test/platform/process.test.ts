import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/db.js';

/**
 * The real entry point (`npm start` runs dist/src/main.js; `npm test` builds it first): roles,
 * structured logs and a clean SIGTERM.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const spawned: ChildProcess[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-proc-'));
});
afterAll(async () => {
  // A test that failed midway must not leave a server running.
  for (const child of spawned) if (child.exitCode === null) child.kill('SIGKILL');
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Running {
  child: ChildProcess;
  logs: Record<string, any>[];
  stderr: string[];
  waitFor(pred: (l: Record<string, any>) => boolean, ms?: number): Promise<Record<string, any>>;
  exit: Promise<number | null>;
}

function start(args: string[], extra: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, ['dist/src/main.js', ...args], {
    env: {
      ...process.env,
      ...extra,
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: 'mlsn.process-test-token-000000000000000000000000000000000000000',
      APP_SECRET: 'process-test-secret-0123456789abcdef0123',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  const logs: Record<string, any>[] = [];
  const stderr: string[] = [];
  const waiters: (() => void)[] = [];
  let buf = '';
  child.stdout!.on('data', (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {
        // not a log line (the migrator's or a banner)
      }
      waiters.forEach((w) => w());
    }
  });
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    logs,
    stderr,
    exit,
    waitFor(pred, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out; logs: ${JSON.stringify(logs).slice(0, 2000)} ${stderr.join('')}`)), ms);
        const check = () => {
          const hit = logs.find(pred);
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          }
        };
        waiters.push(check);
        check();
      });
    },
  };
}

describe('main.js', () => {
  it('--role api serves HTTP, logs JSON with request ids, and stops cleanly on SIGTERM', async () => {
    const p = start(['--role', 'api']);
    const listening = await p.waitFor((l) => l.msg === 'api listening');
    const res = await fetch(`${listening.url}/health`, { headers: { 'x-request-id': 'proc-req-1' } });
    expect(res.status).toBe(200);
    const done = await p.waitFor((l) => l.reqId === 'proc-req-1' && l.msg === 'request completed');
    expect(done.level).toBe(30);
    expect(p.logs.some((l) => l.msg === 'worker started')).toBe(false);
    expect(p.logs.find((l) => l.msg === 'starting')).toMatchObject({ roles: ['api'], heap_growing_percent: 30, maglev: false });

    // Link tokens are credentials: the request log keeps the path, not the token.
    await fetch(`${listening.url}/invites/accept?token=secret-link-token-123&x=1`, { headers: { 'x-request-id': 'proc-req-2' } });
    const logged = await p.waitFor((l) => l.reqId === 'proc-req-2' && l.msg === 'incoming request');
    expect(logged.req.url).toBe('/invites/accept?token=[redacted]&x=1');
    expect(JSON.stringify(p.logs)).not.toContain('secret-link-token-123');
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(p.logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
  });

  it('--role worker runs jobs without HTTP', async () => {
    const p = start(['--role=worker']);
    await p.waitFor((l) => l.msg === 'worker started');
    expect(p.logs.some((l) => l.msg === 'api listening')).toBe(false);
    // A process without the api role leaves its heap more room (src/roles/process.ts heapGrowingPercent).
    expect(p.logs.find((l) => l.msg === 'starting')).toMatchObject({ roles: ['worker'], heap_growing_percent: 45, maglev: true });
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  it('takes a heap growing percent and MAGLEV that are set, whatever the roles', async () => {
    const p = start(['--role', 'worker'], { HEAP_GROWING_PERCENT: '55', MAGLEV: 'false' });
    await p.waitFor((l) => l.msg === 'worker started');
    expect(p.logs.find((l) => l.msg === 'starting')).toMatchObject({ heap_growing_percent: 55, maglev: false });
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  it('refuses a heap growing percent V8 would not take, with exit code 2, before starting anything', async () => {
    const p = start(['--role', 'worker'], { HEAP_GROWING_PERCENT: '-5' });
    expect(await p.exit).toBe(2);
    expect(p.stderr.join('')).toContain('HEAP_GROWING_PERCENT');
    expect(p.logs.some((l) => l.msg === 'worker started')).toBe(false);
  });

  it('refuses an unknown role with exit code 2', async () => {
    const p = start(['--role', 'mailer']);
    expect(await p.exit).toBe(2);
    expect(p.stderr.join('')).toContain('unknown role "mailer"');
  });
});
