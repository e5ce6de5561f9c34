/**
 * The entry module of every untrusted pool's threads (untrusted-pool.ts). A task names the module
 * that holds it and the export to run; the thread loads that module (once: the import is cached),
 * marks the moment the task begins in the pool's shared buffer, then runs it. The pool's hard time
 * limit counts from that mark, so neither the wait for a thread, nor its start, nor loading the
 * module (a render thread's engine warm-up) is counted as the task's running time.
 */

export interface ThreadTask {
  /** URL of the module whose export `task` is run. */
  file: string;
  task: string;
  /** Structured-cloned: a Buffer arrives as a Uint8Array; a SharedArrayBuffer stays shared. */
  input: unknown;
  /** One 64-bit integer: milliseconds since the epoch when the task began, 0 until then. */
  startedAt: SharedArrayBuffer;
}

export default async function runThreadTask({ file, task, input, startedAt }: ThreadTask): Promise<unknown> {
  const tasks = (await import(file)) as Record<string, unknown>;
  const work = tasks[task];
  if (typeof work !== 'function') throw new Error(`${file} exports no task "${task}"`);
  Atomics.store(new BigInt64Array(startedAt, 0, 1), 0, BigInt(Date.now()));
  return (work as (input: unknown) => unknown)(input);
}
