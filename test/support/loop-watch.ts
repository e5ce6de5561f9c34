import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** This thread's CPU time so far, ms (`process.threadCpuUsage`: the main thread's alone, not the parse threads'). */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * How long an interval held this thread: its wall time, but no more than the CPU this thread spent
 * in it. A request or job that holds the event loop spends that CPU here (the server runs in the
 * test's process); a machine whose cores other processes took stretches the wall time only.
 */
export class Interval {
  private readonly wall = performance.now();
  private readonly cpu = threadCpuMs();
  heldMs(minusMs = 0): number {
    return Math.max(0, Math.min(performance.now() - this.wall, threadCpuMs() - this.cpu) - minusMs);
  }
}

/**
 * Asks GET /health again and again while `work` runs, and reports the slowest answer, each answer
 * and each pause between answers counted as the time it held this thread (Interval). The test
 * server runs in the test's own process, so a request or job that holds the event loop shows here
 * as a slow answer or a late pause; tests assert a generous bound, far from what the held loop costs.
 */
export async function slowestHealthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; slowestMs: number; answers: number }> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  let slowestMs = 0;
  let answers = 0;
  while (!done) {
    const asked = new Interval();
    const res = await fetch(`${url}/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    slowestMs = Math.max(slowestMs, asked.heldMs());
    answers++;
    // A hold that falls between two answers shows as the pause's lateness.
    const paused = new Interval();
    await new Promise((r) => setTimeout(r, 20));
    slowestMs = Math.max(slowestMs, paused.heldMs());
  }
  return { result: await settled, slowestMs, answers };
}

/**
 * The longest this thread's event loop was held while `work` ran, as a timer every 10 ms sees it:
 * each late tick counts the time it held the thread (Interval). Catches a hold that falls between
 * two requests, which asking GET /health in a loop misses.
 */
export async function longestHoldDuring<T>(work: Promise<T>): Promise<{ result: T; heldMs: number }> {
  let heldMs = 0;
  let tick = new Interval();
  const timer = setInterval(() => {
    heldMs = Math.max(heldMs, tick.heldMs(10));
    tick = new Interval();
  }, 10);
  try {
    const result = await work;
    heldMs = Math.max(heldMs, tick.heldMs(10));
    return { result, heldMs };
  } finally {
    clearInterval(timer);
  }
}

/**
 * slowestHealthDuring for work that can run twice with the same outcome (a refusal stores
 * nothing): when the slowest answer reaches `boundMs`, the work runs once more and the better of
 * the two runs counts. A hold the server causes shows on every run; a stall of the machine (other
 * processes took both cores) seldom twice in a row.
 */
export async function slowestHealthOfRepeatable<T>(url: string, work: () => Promise<T>, boundMs: number): Promise<{ result: T; slowestMs: number }> {
  const first = await slowestHealthDuring(url, work());
  if (first.slowestMs < boundMs) return first;
  const second = await slowestHealthDuring(url, work());
  return second.slowestMs < first.slowestMs ? second : first;
}

/**
 * A prepared message as a client's socket writes it, in 64 KB pieces: a mail client in this
 * process handed one large piece would hold the loop itself (its dot-stuffing runs over the
 * whole piece), which slowestHealthDuring would count against the server.
 */
export function inPieces(raw: Buffer): Readable {
  const size = 65_536;
  return Readable.from(Array.from({ length: Math.ceil(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size)));
}

/**
 * POSTs `body` from a worker thread of its own: a client in this process writing tens of
 * megabytes would hold the loop itself, which slowestHealthDuring would count against the server.
 * A copy of the body goes, made before the call returns, so repeatable work can send it again.
 */
export async function postFromThread(url: string, headers: Record<string, string>, body: Uint8Array<ArrayBuffer>): Promise<{ status: number; text: string }> {
  const client = `const { parentPort, workerData: { url, headers, body } } = require('node:worker_threads');
    fetch(url, { method: 'POST', headers, body }).then(
      async (res) => parentPort.postMessage({ status: res.status, text: await res.text() }),
      (err) => parentPort.postMessage({ error: String(err) }),
    );`;
  const copy = new Uint8Array(body);
  const thread = new Worker(client, { eval: true, workerData: { url, headers, body: copy }, transferList: [copy.buffer] });
  try {
    const answer = await new Promise<{ status: number; text: string; error?: string }>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
    if (answer.error) throw new Error(answer.error);
    return answer;
  } finally {
    await thread.terminate();
  }
}
