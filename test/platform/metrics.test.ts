import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resetEventLoopDelayPeak } from '../../src/lib/event-loop.js';
import { createTestDatabase } from '../support/db.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { METRICS_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * Who may read /metrics: on the public port a scraper holding METRICS_TOKEN, and nobody when it
 * is unset; on METRICS_PORT (loopback) every process, whatever its roles. Each process reports
 * its event loop delay (postbox_event_loop_delay_seconds over the window since the previous
 * scrape, postbox_event_loop_delay_peak_seconds since start or reset).
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
});
afterAll(async () => {
  await s?.close();
});

/** Holds this process's event loop (which the in-process server shares) for `ms`. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs meanwhile
  }
}

describe('on the public port with METRICS_TOKEN set', () => {
  it('refuses a scrape without the token, or with another, with 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-metrics-token-at-all' }, { authorization: `Basic ${METRICS_TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${s.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('serves the token holder, with the event loop delay of the window and the peak', async () => {
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    for (const q of ['0.5', '0.99', '1']) expect(sampleOf(text, `postbox_event_loop_delay_seconds{quantile="${q}"}`)).not.toBeNull();
    expect(sampleOf(text, 'postbox_event_loop_delay_peak_seconds')).not.toBeNull();
  });

  it('shows a held event loop in the window it happened in and in the peak until that is reset', async () => {
    await scrapeMetrics(s);
    // At once after the scrape that began a window: perf_hooks' own reset forgets that interval.
    holdEventLoop(1500);
    const held = await scrapeMetrics(s);
    expect(sampleOf(held, 'postbox_event_loop_delay_seconds{quantile="1"}')).toBeGreaterThanOrEqual(1.4);
    expect(sampleOf(held, 'postbox_event_loop_delay_peak_seconds')).toBeGreaterThanOrEqual(1.4);
    // The next window starts after the hold; the peak keeps it.
    const next = await scrapeMetrics(s);
    expect(sampleOf(next, 'postbox_event_loop_delay_seconds{quantile="1"}')).toBeLessThan(1);
    expect(sampleOf(next, 'postbox_event_loop_delay_peak_seconds')).toBeGreaterThanOrEqual(1.4);
    resetEventLoopDelayPeak();
    expect(sampleOf(await scrapeMetrics(s), 'postbox_event_loop_delay_peak_seconds')).toBeLessThan(1);
  });
});

describe('with METRICS_TOKEN unset and METRICS_PORT set', () => {
  let quiet: TestServer;
  beforeAll(async () => {
    quiet = await startTestServer({ roles: ['api'], env: { METRICS_TOKEN: '', METRICS_PORT: '0' } });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it('the public port has no /metrics', async () => {
    const res = await fetch(`${quiet.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Resource not found.' });
  });

  it('the metrics port, on loopback, serves /metrics and nothing else', async () => {
    const url = quiet.app.metricsUrl!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(sampleOf(await res.text(), 'postbox_event_loop_delay_peak_seconds')).not.toBeNull();
    expect((await fetch(`${url}/graphql`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST', body: 'x' })).status).toBe(404);
  });
});

describe('each role of the real entry point (dist/src/main.js) on METRICS_PORT', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  const spawned: ChildProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-metrics-'));
  });
  afterAll(async () => {
    for (const child of spawned) if (child.exitCode === null) child.kill('SIGKILL');
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts one role and answers the URL its metrics listener logged. */
  async function startRole(role: string): Promise<{ child: ChildProcess; metricsUrl: string }> {
    const child = spawn(process.execPath, ['dist/src/main.js', '--role', role], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        PORT: '0',
        SMTP_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        APP_SECRET: 'metrics-test-secret-0123456789abcdef0123',
        METRICS_PORT: '0',
        METRICS_TOKEN: METRICS_TOKEN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    spawned.push(child);
    let out = '';
    child.stderr!.on('data', (chunk) => (out += chunk));
    const metricsUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${role}: no metrics listener: ${out.slice(-2000)}`)), 60_000);
      child.on('exit', (code) => reject(new Error(`${role} exited ${code}: ${out.slice(-2000)}`)));
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('"msg":"metrics listening"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line).url);
        }
      });
    });
    return { child, metricsUrl };
  }

  it.each(['worker', 'smtp'])('--role %s serves its own figures, behind METRICS_TOKEN', async (role) => {
    const { child, metricsUrl } = await startRole(role);
    expect((await fetch(`${metricsUrl}/metrics`)).status).toBe(401);
    const res = await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sampleOf(text, 'postbox_event_loop_delay_seconds{quantile="0.99"}')).not.toBeNull();
    expect(sampleOf(text, 'postbox_event_loop_delay_peak_seconds')).not.toBeNull();
    expect(text).toContain('process_resident_memory_bytes');
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }, 90_000);
});
