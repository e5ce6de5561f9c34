import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from './server.js';

/**
 * Worker processes of their own (dist/src/main.worker.js, built by `npm test`) beside a test
 * server, so that a test can SIGKILL or SIGSTOP one as an operator's machine would lose it.
 */
export class WorkerProcesses {
  private readonly children: ChildProcess[] = [];
  private readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-worker-'));

  constructor(
    private readonly s: TestServer,
    private readonly env: Record<string, string> = {},
  ) {}

  start(env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, ['dist/src/main.worker.js'], {
      env: {
        ...process.env,
        DATABASE_URL: this.s.dbUrl,
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        APP_SECRET: this.s.app.services.config.APP_SECRET,
        DNS_SERVERS: this.s.dns.server,
        ...this.env,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.push(child);
    return child;
  }

  /** SIGKILL: no shutdown, no last statement; resolves once the process is gone. */
  async kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }

  async close(): Promise<void> {
    await Promise.all(this.children.map((c) => this.kill(c)));
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
