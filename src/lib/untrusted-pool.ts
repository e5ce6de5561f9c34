import { Piscina } from 'piscina';
import type { ThreadTask } from './untrusted-thread.js';


export interface PoolLimits {
  /** Threads working at once; more tasks wait for one. */
  threads: number;
  /** Tasks that may wait for a thread; past that a task is refused at once (`busy`). */
  queue: number;
  /** Hard limit of one task, from when a thread begins it: the thread is then terminated (`timeout`). */
  timeoutMs: number;
  /** Old-generation heap of each thread; a task that needs more ends its thread (`memory`). */
  heapMb: number;
  /**
   * How long a task may wait for a thread to begin it (its turn, then the thread's start); past
   * it the task is refused (`busy`). Default: its time limit, and at least WAIT_FLOOR_MS.
   */
  waitMs?: number;
  /** A thread kept this long without work ends, so an idle service holds no threads (default IDLE_MS). */
  idleMs?: number;
}

export type Refusal = 'busy' | 'timeout' | 'memory';

/** A task that was not done: no thread free in time, too slow, or too big for its thread's heap. */
export class PoolRefusal extends Error {
  readonly reason: Refusal;
  constructor(reason: Refusal, message: string) {
    super(message);
    this.reason = reason;
  }
}

const IDLE_MS = 30_000;
/** A thread's start (loading its modules) is slow on a busy machine: never a reason to refuse a task. */
const WAIT_FLOOR_MS = 10_000;

const stopping = () => new PoolRefusal('busy', 'The service is stopping; try again later.');

/**
 * The entry file of a pool's threads, which holds its tasks (untrusted-thread.ts says how),
 * beside the module that declares the pool: `.js` in the built service, `.ts` when the sources
 * run (jest).
 */
export function threadFile(besideUrl: string, name: string): URL {
  const ext = besideUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, besideUrl);
}

/** Only for the TypeScript sources (thread-source-hooks.ts says why); the built service never loads it. */
const SOURCE_HOOKS = new URL('./thread-source-hooks.ts', import.meta.url).href;

/**
 * One task's two limits, read from the mark its thread writes when it begins the task (poolTask,
 * untrusted-thread.ts): until then the task may wait `waitMs` from when it was given, from then
 * it may run `hardMs`. A task past either is aborted: piscina drops it from its queue, or
 * terminates the thread running it.
 */
class TaskClock {
  readonly startedAt = new SharedArrayBuffer(8);
  ended: 'wait' | 'time' | 'closed' | null = null;
  private readonly began = new BigInt64Array(this.startedAt, 0, 1);
  private readonly abort = new AbortController();
  private readonly givenAt = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly waitMs: number,
    private readonly hardMs: number,
  ) {
    this.timer = setTimeout(this.check, Math.min(waitMs, hardMs));
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** While the task waits, it looks again at least every `hardMs`, so a task that began meanwhile is held to its limit. */
  private readonly check = () => {
    const now = Date.now();
    const began = Number(Atomics.load(this.began, 0));
    if (!began && now - this.givenAt >= this.waitMs) return this.end('wait');
    if (began && now - began >= this.hardMs) return this.end('time');
    this.timer = setTimeout(this.check, began ? began + this.hardMs - now : Math.min(this.hardMs, this.givenAt + this.waitMs - now));
  };

  end(why: 'wait' | 'time' | 'closed', abort = true): void {
    if (this.ended) return;
    this.ended = why;
    this.stop();
    if (abort) this.abort.abort();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * CPU work on untrusted input (archives, XML, MIME, templates) run off the event loop in worker
 * threads that are terminated at a hard time limit, so no request or job holds the loop however
 * the input was built. `file` is the threads' entry module: it imports what it runs statically
 * and exports the tasks, each wrapped by poolTask (untrusted-thread.ts) so that it marks its
 * start. From the TypeScript sources (the tests) the threads run the `.ts` files
 * (thread-source-hooks.ts).
 *
 * Tasks wait here, not in piscina: one is handed over only when a thread is free for it. piscina
 * starts a thread for a task it cannot place, but replaces a terminated thread only up to
 * minThreads; a task queued inside piscina after its threads were terminated would wait for a
 * thread that never comes (test/templates/render-limits.test.ts, "too busy"). So minThreads stays
 * 0, and idle threads end.
 */
export class UntrustedPool {
  private pool: Piscina | null = null;
  /** Tasks given and not answered yet: those running, and those waiting for a thread. */
  private readonly clocks = new Set<TaskClock>();
  private running = 0;
  private readonly waiting: { go: () => void; fail: (err: unknown) => void }[] = [];
  private readonly waitMs: number;
  private closed = false;

  constructor(
    private readonly file: URL,
    private readonly limits: PoolLimits,
  ) {
    this.waitMs = limits.waitMs ?? Math.max(limits.timeoutMs, WAIT_FLOOR_MS);
  }

  /**
   * Runs the export `task` of the pool's file (a poolTask) on `input` (structured-cloned both
   * ways); the buffers in `transfer` move to the thread instead, uncopied, and are unusable here after.
   */
  async run<T>(task: string, input: unknown, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) throw stopping();
    if (this.clocks.size >= this.limits.threads + this.limits.queue) {
      throw new PoolRefusal('busy', 'Too much of this work is in progress; try again later.');
    }
    const clock = new TaskClock(this.waitMs, this.limits.timeoutMs);
    this.clocks.add(clock);
    try {
      await this.takeThread(clock.signal);
      try {
        // Closed while this task waited for its turn: it starts no thread.
        if (this.closed) throw stopping();
        const work: ThreadTask = { input, startedAt: clock.startedAt };
        return await this.threads().run(work, { name: task, signal: clock.signal, transferList: transfer });
      } finally {
        this.releaseThread();
      }
    } catch (err) {
      throw this.refusalOf(clock, err) ?? err;
    } finally {
      clock.stop();
      this.clocks.delete(clock);
    }
  }

  /**
   * Ends the threads and waits for them to exit; tasks in progress or waiting, and any given
   * later, are refused (`busy`).
   */
  async close(): Promise<void> {
    this.closed = true;
    // Running tasks end with their threads, which destroy() waits for; waiting ones end here.
    for (const clock of this.clocks) clock.end('closed', false);
    for (const turn of this.waiting.splice(0)) turn.fail(new Error('closed'));
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private takeThread(signal: AbortSignal): Promise<void> {
    if (this.running < this.limits.threads) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const turn = {
        go: () => {
          signal.removeEventListener('abort', giveUp);
          resolve();
        },
        fail: reject,
      };
      const giveUp = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(turn);
    });
  }

  /** The thread goes to the next task waiting, if any (it stays counted as running meanwhile). */
  private releaseThread(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.running--;
  }

  private refusalOf(clock: TaskClock, err: unknown): PoolRefusal | null {
    if (clock.ended === 'wait') return new PoolRefusal('busy', 'No thread was free for this work in time; try again later.');
    if (clock.ended === 'closed') return stopping();
    if (clock.ended === 'time') return new PoolRefusal('timeout', `The work took longer than ${this.limits.timeoutMs} ms and was stopped.`);
    if ((err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new PoolRefusal('memory', `The work needed more than ${this.limits.heapMb} MB of memory and was stopped.`);
    }
    return null;
  }

  private threads(): Piscina {
    if (this.pool) return this.pool;
    const fromSources = this.file.pathname.endsWith('.ts');
    this.pool = new Piscina({
      // piscina loads it when a thread starts, before the thread takes its first task.
      filename: this.file.href,
      minThreads: 0,
      maxThreads: this.limits.threads,
      idleTimeout: this.limits.idleMs ?? IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb },
      ...(fromSources ? { execArgv: [...process.execArgv, '--import', SOURCE_HOOKS] } : {}),
    });
    return this.pool;
  }
}

/** The pools of each owner (a running app's config: tests run several apps in one process). */
const poolsByOwner = new WeakMap<object, Map<string, UntrustedPool>>();
/** Owners whose pools were closed: work that comes late gets a closed pool, which starts no thread. */
const closedOwners = new WeakSet<object>();

/**
 * The pool `name` of `owner`, made by `make` on first use. An app's pools are its config's, so
 * that closing the app ends their threads (closePoolsOf, from src/roles/runtime.ts).
 */
export function poolOf(owner: object, name: string, make: () => UntrustedPool): UntrustedPool {
  if (closedOwners.has(owner)) {
    const late = make();
    void late.close();
    return late;
  }
  let pools = poolsByOwner.get(owner);
  if (!pools) poolsByOwner.set(owner, (pools = new Map()));
  let pool = pools.get(name);
  if (!pool) pools.set(name, (pool = make()));
  return pool;
}

/** Closes every pool of `owner` and waits for their threads to exit. */
export async function closePoolsOf(owner: object): Promise<void> {
  const pools = poolsByOwner.get(owner);
  poolsByOwner.delete(owner);
  closedOwners.add(owner);
  await Promise.all([...(pools?.values() ?? [])].map((pool) => pool.close()));
}
