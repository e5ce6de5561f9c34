import type { Config } from '../../config/index.js';
import { poolOf, PoolRefusal, threadFile, UntrustedPool } from '../../lib/untrusted-pool.js';
import type { PoolTask } from './render.worker.js';
import type { EmailRenderResult, EmailRenderTask, SendRenderResult, SendRenderTask } from './template.render.js';

/**
 * The render pool: the renders that may be expensive run in worker threads (lib/untrusted-pool.ts).
 * liquidjs checks its time limit between nodes, so one filter over a long list, or a long chain of
 * them, runs to its end however long it takes; in a thread, the pool's hard limit ends it by
 * terminating the thread, and the event loop answers other requests meanwhile
 * (test/templates/render-limits.test.ts).
 *
 * - The hard limit counts running time only: a render waiting for a thread waits at most
 *   RENDER_POOL_WAIT_MS, then the caller hears the pool is busy (a 503 at acceptance, a retry at
 *   delivery).
 * - A thread's heap is bounded: a render that allocates past it ends the thread, not the process.
 * - The pool starts on first use, so a process that renders nothing expensive has no thread. Its
 *   threads run at the event loop's priority: under a lower one, the other processes of a busy
 *   machine starved them past the time limit, which is wall-clock time.
 */

export type RenderPoolSettings = Pick<Config, 'RENDER_POOL_THREADS' | 'RENDER_POOL_QUEUE' | 'RENDER_POOL_WAIT_MS' | 'TEMPLATE_RENDER_MS'>;

/** Time a render may take, in which liquidjs's own check answers; the hard limit comes this much later. */
const HARD_GRACE_MS = 100;

/** A thread's heap: TEMPLATE_MEMORY_LIMIT's default counts items and characters, which take a few bytes each. */
const THREAD_HEAP_MB = 256;

/** Threads idle this long end; the next expensive render starts one again. */
const IDLE_MS = 60_000;

/** The render pool of an app (its config), made on first use. */
function poolFor(config: RenderPoolSettings): UntrustedPool {
  return poolOf(config, 'render', () =>
    new UntrustedPool(threadFile(import.meta.url, 'render.worker'), {
      threads: config.RENDER_POOL_THREADS,
      queue: config.RENDER_POOL_QUEUE,
      waitMs: config.RENDER_POOL_WAIT_MS,
      timeoutMs: Math.max(1, config.TEMPLATE_RENDER_MS) + HARD_GRACE_MS,
      heapMb: THREAD_HEAP_MB,
      idleMs: IDLE_MS,
    }),
  );
}

/** The pool stopped a render: it ran past the hard limit, or past its thread's heap. `part` and `recipient` say where it was. */
export class RenderStopped extends Error {
  readonly reason: 'time' | 'memory';
  readonly part: number;
  readonly recipient: number;
  constructor(reason: 'time' | 'memory', part: number, recipient: number, limitMs: number) {
    super(reason === 'time' ? `it took longer than ${limitMs} ms and was stopped` : 'it used more memory than a render may and was stopped');
    this.reason = reason;
    this.part = part;
    this.recipient = recipient;
  }
}

/** No thread took the render in time, or too many were waiting. */
export class RenderBusy extends Error {
  constructor() {
    super('the template render pool is busy');
  }
}

/**
 * Runs a render in the pool within `task.limits.ms` of running time (liquidjs's check) and
 * HARD_GRACE_MS more (the thread is terminated). Throws RenderStopped or RenderBusy.
 */
export function renderInPool(config: RenderPoolSettings, task: SendRenderTask): Promise<SendRenderResult>;
export function renderInPool(config: RenderPoolSettings, task: EmailRenderTask): Promise<EmailRenderResult>;
export async function renderInPool(config: RenderPoolSettings, task: SendRenderTask | EmailRenderTask): Promise<SendRenderResult | EmailRenderResult> {
  // The thread writes which part of which recipient it renders, read here when the pool stops it.
  const progress = new SharedArrayBuffer(8);
  const where = new Int32Array(progress);
  try {
    const payload: PoolTask = { ...task, progress };
    return await poolFor(config).run<SendRenderResult | EmailRenderResult>('render', payload);
  } catch (err) {
    if (!(err instanceof PoolRefusal)) throw err;
    if (err.reason === 'busy') throw new RenderBusy();
    throw new RenderStopped(err.reason === 'timeout' ? 'time' : 'memory', Atomics.load(where, 0), Atomics.load(where, 1), task.limits.ms);
  }
}
