/**
 * The tasks of the untrusted pools' threads (untrusted-pool.ts). A pool's file is its threads'
 * entry module: it imports what it runs statically, and exports each task wrapped by poolTask.
 * piscina loads the file when a thread starts and calls the export a task names.
 *
 * The wrapper marks the moment the task begins in the pool's shared buffer before it runs it. The
 * pool's hard time limit counts from that mark, so neither the wait for a thread, nor its start,
 * nor loading its file (a render thread's engine warm-up) is counted as the task's running time.
 * A task that marked no start would be held only to the wait for a thread, not to its time limit
 * (test/templates/render-limits.test.ts, "a single filter that runs long"). Kept free of imports:
 * every thread file loads it, and json-body.thread.ts is loaded on the event loop too.
 */

/** What the pool hands a thread for one task. */
export interface ThreadTask<Input = unknown> {
  /** Structured-cloned: a Buffer arrives as a Uint8Array; a SharedArrayBuffer stays shared. */
  input: Input;
  /** One 64-bit integer: milliseconds since the epoch when the task began, 0 until then. */
  startedAt: SharedArrayBuffer;
}

/** `work` as a task of a pool's file: it runs on the task's input once the task's start is marked. */
export function poolTask<Input, Output>(work: (input: Input) => Output): (task: ThreadTask<Input>) => Output {
  return ({ input, startedAt }) => {
    Atomics.store(new BigInt64Array(startedAt, 0, 1), 0, BigInt(Date.now()));
    return work(input);
  };
}
