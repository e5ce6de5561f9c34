import { poolTask } from '../../lib/untrusted-thread.js';
import { renderEmail, renderSend, warmUp, type EmailRenderResult, type EmailRenderTask, type SendRenderResult, type SendRenderTask } from './template.render.js';

/**
 * The entry module of the render pool's threads (render.pool.ts) and its task: renders one send
 * or one email. The task's shared buffer tells the pool which part of which recipient it is at,
 * so that the message of a render the pool stopped names the part.
 */

/** A task and its shared buffer: the part, then the recipient, as two 32-bit integers. */
export type PoolTask = (SendRenderTask | EmailRenderTask) & { progress: SharedArrayBuffer };

// When a thread starts and loads this module, before its first task marks its start (poolTask): loading counts in no render's time limit.
warmUp();

export const render = poolTask((task: PoolTask): SendRenderResult | EmailRenderResult => {
  const where = new Int32Array(task.progress, 0, 2);
  const progress = {
    at(part: number, recipient: number) {
      Atomics.store(where, 0, part);
      Atomics.store(where, 1, recipient);
    },
  };
  return task.kind === 'send' ? renderSend(task, progress) : renderEmail(task, progress);
});
