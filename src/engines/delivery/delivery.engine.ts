import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import type { Orm } from '../../db/orm.js';
import type { AppServices } from '../../core/services.js';
import { DeliveryLeaseRepository, type LapsedBatch } from './lease.repository.js';
import { OutcomeRecorder } from './outcome.recorder.js';
import { newId } from '../../lib/ids.js';
import { Slots } from '../../lib/slots.js';

/**
 * How long a claim lasts without renewal (WORKER_LEASE_SECONDS), renewed every third of it. A dead
 * or frozen worker's batches are taken over once it has run out (at most a lease and one renewal
 * period after the death) and their jobs settled by the taker, never left to pg-boss's own
 * recovery (test/sending/takeover.test.ts).
 */
export const leaseSeconds = (config: Config) => config.WORKER_LEASE_SECONDS;

/** Lapsed batches one process delivers at once; their emails still share DELIVERY_CONCURRENCY's slots. */
const TAKEOVERS_MAX = 4;

/** A batch this process delivers, under its lease row (delivery-lease.entity.ts). */
export interface BatchClaim {
  readonly id: string;
  /** When the database last confirmed the lease (the claim, or a renewal), in ms. */
  confirmedAt: number;
  /** Taken over by another worker: what this process has not handed to the transport yet stays unsent. */
  lost: boolean;
}

/**
 * What the delivery of one worker process shares across its batches: the slots that bound the
 * emails in flight (DELIVERY_CONCURRENCY: built, handed to the transport and recorded), the
 * outcome recorder, and the batches and emails this process holds. Every third of a lease one
 * statement renews them, then lapsed batches of other workers are taken over.
 */
export class DeliveryEngine {
  readonly slots: Slots;
  readonly recorder: OutcomeRecorder;
  /** Emails claimed by this process and not yet recorded or released, with their batch. */
  readonly held = new Map<string, BatchClaim>();
  /** This process, as the owner of its lease rows. */
  readonly owner = newId();
  private readonly batches = new Set<BatchClaim>();
  private readonly leaseMs: number;
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> | null = null;
  private readonly takeovers = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly orm: Orm,
    private readonly services: AppServices,
    private readonly deliverLapsed: (batch: LapsedBatch) => Promise<void>,
  ) {
    this.slots = new Slots(services.config.DELIVERY_CONCURRENCY);
    this.recorder = new OutcomeRecorder(orm, services.log);
    this.leaseMs = leaseSeconds(services.config) * 1000;
    this.timer = setInterval(() => void this.tick(), this.leaseMs / 3);
    this.timer.unref();
  }

  private repo(): DeliveryLeaseRepository {
    return new DeliveryLeaseRepository(this.orm.em.fork() as EntityManager);
  }

  /** A batch whose lease row this process owns now (its claim committed, or its takeover). */
  begin(id: string): BatchClaim {
    const batch: BatchClaim = { id, confirmedAt: Date.now(), lost: false };
    this.batches.add(batch);
    return batch;
  }

  /** The batch's outcomes are recorded (or it gave its claims back): its lease is no longer renewed. */
  end(batch: BatchClaim): void {
    this.batches.delete(batch);
  }

  /**
   * Whether this process still holds `batch`, checked before an email goes to the transport. A
   * renewal that has not been confirmed for two thirds of a lease (the process froze, or the
   * database was away) is tried again first; past a whole lease another worker may have the batch.
   */
  async holds(batch: BatchClaim): Promise<boolean> {
    if (batch.lost) return false;
    if (Date.now() - batch.confirmedAt < (this.leaseMs * 2) / 3) return true;
    await this.renew();
    return !batch.lost && Date.now() - batch.confirmedAt < this.leaseMs;
  }

  /** One renewal at a time; callers that come while one runs wait for it. */
  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (!this.batches.size) return;
    const sentAt = Date.now();
    const batches = [...this.batches];
    const emails = [...this.held];
    try {
      const live = await this.repo().renew(
        this.owner,
        this.leaseMs / 1000,
        batches.map((b) => b.id),
        emails.map(([id]) => id),
        emails.map(([, b]) => b.id),
      );
      for (const b of batches) {
        if (live.has(b.id)) b.confirmedAt = sentAt;
        // A batch that ended meanwhile deleted its own row; one still here was taken over.
        else if (this.batches.has(b)) b.lost = true;
      }
    } catch (err) {
      this.services.log.warn({ err: (err as Error).message }, 'delivery leases not renewed');
    }
  }

  private async tick(): Promise<void> {
    await this.renew();
    if (this.stopped || this.takeovers.size >= TAKEOVERS_MAX) return;
    let lapsed: LapsedBatch[];
    try {
      lapsed = await this.repo().takeOver(this.owner, this.leaseMs / 1000, TAKEOVERS_MAX - this.takeovers.size);
    } catch (err) {
      this.services.log.warn({ err: (err as Error).message }, 'lapsed delivery batches not looked for');
      return;
    }
    for (const batch of lapsed) {
      this.services.log.info({ messages: batch.message_ids.length }, 'delivery batch of a stopped worker taken over');
      const run = this.deliverLapsed(batch)
        .catch((err: unknown) => this.services.log.error({ err }, 'taken-over delivery batch failed'))
        .finally(() => this.takeovers.delete(run));
      this.takeovers.add(run);
    }
  }

  /**
   * No more takeovers; resolves once those under way are settled. Called once the delivery loop
   * stopped (its batches settled); renewals go on for a process that keeps running.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.takeovers);
  }
}
