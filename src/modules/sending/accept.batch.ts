import { acceptStatementSends } from '../../lib/metrics.js';
import type { AppServices } from '../../core/services.js';
import { AcceptRepository, type AcceptRows, type Written } from './accept.repository.js';

interface Waiting {
  rows: AcceptRows;
  check: unknown;
  resolve(written: Written): void;
  reject(err: unknown): void;
}

/**
 * Group commit for acceptance. Under load a send's one statement is mostly fixed costs: the
 * round trip (a socket write on each side), the executor's start and the commit's WAL flush.
 * So at most `lanes` acceptance statements run at once, and the unkeyed sends that arrive while
 * they run wait and go together in the next one (`writeMany`), up to `max` a statement. A send
 * alone (no load) goes at once, in the same statement as before.
 *
 * Each send keeps its own outcome: a batch in which any send has a suppression match writes
 * nothing, and so does one that fails (a deadlock, a row one send may not write); its sends are
 * then written each on its own, as unbatched sends are, so a send fails only for itself.
 */
export class AcceptBatcher {
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private pumping = false;

  constructor(
    private readonly repository: () => AcceptRepository,
    private readonly lanes: number,
    private readonly max: number,
  ) {}

  write(rows: AcceptRows, check: unknown): Promise<Written> {
    return new Promise<Written>((resolve, reject) => {
      this.waiting.push({ rows, check, resolve, reject });
      // Sends handed over in the same turn of the event loop start together.
      if (!this.pumping) {
        this.pumping = true;
        queueMicrotask(() => {
          this.pumping = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.running < this.lanes && this.waiting.length) {
      const batch = this.waiting.splice(0, this.max);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    const repository = this.repository();
    if (batch.length > 1) {
      // One rollup shard for the whole batch: its counts take one row per key, not one per shard,
      // so concurrent batches (on other shards) do not queue behind each other's row locks.
      const shard = batch[0].rows.activities[0]?.shard ?? 0;
      const items = batch.map(({ rows, check }) => ({ rows: { ...rows, activities: rows.activities.map((a) => ({ ...a, shard })) }, check }));
      const written = await repository.writeMany(items).catch(() => false);
      if (written) {
        acceptStatementSends.observe(batch.length);
        for (const w of batch) w.resolve({ written: true, matches: null });
        return;
      }
    }
    await Promise.all(
      batch.map(async (w) => {
        try {
          w.resolve(await repository.write(w.rows, w.check));
          acceptStatementSends.observe(1);
        } catch (err) {
          w.reject(err);
        }
      }),
    );
  }
}

const batchers = new WeakMap<AppServices['orm'], AcceptBatcher>();

/** The batcher of an app's sends: one per ORM, whose connections its statements take. */
export function acceptBatcher(services: AppServices): AcceptBatcher {
  let found = batchers.get(services.orm);
  if (!found) {
    const { ACCEPT_LANES, ACCEPT_BATCH_MAX } = services.config;
    batchers.set(services.orm, (found = new AcceptBatcher(() => new AcceptRepository(services.orm.em.fork()), ACCEPT_LANES, ACCEPT_BATCH_MAX)));
  }
  return found;
}
