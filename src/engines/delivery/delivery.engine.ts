import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import type { Orm } from '../../db/orm.js';
import type { AppServices } from '../../core/services.js';
import { DeliveryRepository } from './delivery.repository.js';
import { OutcomeRecorder } from './outcome.recorder.js';

/**
 * How long a claim on an email lasts without renewal: half the job heartbeat. pg-boss refreshes
 * a job's heartbeat every half of it and fails the job once it is a whole one old, so when a
 * worker dies its emails' leases have run out before its jobs are retried, and the retry takes
 * them at once instead of finding them held and backing off.
 */
export const leaseSeconds = (config: Config) => Math.max(5, Math.floor(config.JOB_HEARTBEAT_SECONDS / 2));

/** At most `size` tasks at once, the others waiting in order. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * What the delivery of one worker process shares across its batches: the slots that bound the
 * emails in flight (DELIVERY_CONCURRENCY: built, handed to the transport and recorded), the
 * outcome recorder, and the emails this process holds, whose leases one statement renews every
 * third of a lease.
 */
export class DeliveryEngine {
  readonly slots: Slots;
  readonly recorder: OutcomeRecorder;
  /** Emails claimed by this process and not yet recorded or released. */
  readonly held = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(orm: Orm, services: AppServices) {
    this.slots = new Slots(services.config.DELIVERY_CONCURRENCY);
    this.recorder = new OutcomeRecorder(orm, services.log);
    const lease = leaseSeconds(services.config);
    this.timer = setInterval(() => {
      if (!this.held.size) return;
      new DeliveryRepository(orm.em.fork() as EntityManager)
        .renew([...this.held], lease)
        .catch((err) => services.log.warn({ err: (err as Error).message }, 'delivery leases not renewed'));
    }, (lease * 1000) / 3);
    this.timer.unref();
  }
}

const engines = new WeakMap<Orm, DeliveryEngine>();

/** The engine of the pool the worker runs on (one per process in practice). */
export function engineOf(services: AppServices): DeliveryEngine {
  let engine = engines.get(services.orm);
  if (!engine) {
    engine = new DeliveryEngine(services.orm, services);
    engines.set(services.orm, engine);
  }
  return engine;
}
