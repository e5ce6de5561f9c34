import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Orm } from '../../db/orm.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { emailDeliveries } from '../../lib/metrics.js';
import { prepareActivities, recordActivities, type ActivityEmail, type NewActivity } from '../../modules/activity/activity.record.js';
import { suppressRecipient } from '../../modules/suppressions/suppression.add.js';
import { OutcomeRepository, type OutcomeRow } from './outcome.repository.js';
import { deliveryReason } from '../../lib/delivery-reason.js';

/** One email's outcome with everything recorded with it, in the same transaction. */
export interface Outcome {
  row: OutcomeRow;
  email: ActivityEmail;
  activities: Omit<NewActivity, 'email'>[];
  /** A hard bounce puts the recipient on the domain's hard-bounce list. */
  hardBounce?: { recipientId: string; reason: string };
}

interface Waiting {
  outcome: Outcome;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Commits in flight at once. One lane alone makes every outcome that arrives during a commit wait
 * for it to end before its own begins, which doubles the SMTP duplicate window under load; a few
 * lanes keep it about one commit long while each commit still carries many outcomes.
 */
const LANES = 3;
/**
 * Outcomes waiting that open another lane beside a running one. A commit is one short statement
 * now, so lanes opened for every outcome would commit them one or two at a time, and a commit
 * (its WAL flush, its statement, the rollup rows it locks) costs the database more than the
 * outcomes in it: under load outcomes wait for the running commit, at most one commit more,
 * unless this many gathered, and then go together.
 */
const LANE_OPENS_AT = 16;
/** About a minute of trying while the database is away (a restart), before giving the error back. */
const RECORD_ATTEMPTS = 60;
/** Outcomes per transaction at most. */
const BATCH_MAX = 500;

/**
 * Records delivery outcomes by group commit: outcomes that arrive while LANES transactions are
 * committing wait for the next free one, which takes them all (the email updates, the activities,
 * their daily counts and events in one statement; a group with a hard bounce in a transaction
 * that also suppresses the recipient). Under load a commit carries many outcomes; alone, an
 * outcome is committed at once. A caller's promise settles when its outcome is durable, so the SMTP
 * duplicate window (an accepted message whose outcome is not recorded yet) is one or two commits
 * long.
 */
export class OutcomeRecorder {
  private readonly queue: Waiting[] = [];
  private lanes = 0;

  constructor(
    private readonly orm: Orm,
    private readonly log: Logger,
  ) {}

  record(outcome: Outcome): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ outcome, resolve, reject });
      if (this.lanes === 0 || (this.lanes < LANES && this.queue.length >= LANE_OPENS_AT)) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.lanes++;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH_MAX);
        await this.commitAll(batch);
      }
    } finally {
      this.lanes--;
    }
  }

  /** Commits a batch, retrying while the database is away; a batch that fails otherwise is split, so one bad outcome fails alone. */
  private async commitAll(batch: Waiting[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commit(batch.map((w) => w.outcome));
        for (const w of batch) w.resolve();
        return;
      } catch (err) {
        if (isDatabaseUnavailable(err) && attempt < RECORD_ATTEMPTS) {
          if (attempt === 1) this.log.warn({ err: (err as Error).message, outcomes: batch.length }, 'delivery outcomes wait for the database');
          await new Promise((r) => setTimeout(r, Math.min(1000, 200 * attempt)));
          continue;
        }
        if (batch.length > 1 && !isDatabaseUnavailable(err)) {
          for (const w of batch) await this.commitAll([w]);
          return;
        }
        for (const w of batch) w.reject(err);
        return;
      }
    }
  }

  private async commit(outcomes: Outcome[]): Promise<void> {
    if (!outcomes.some((o) => o.hardBounce)) {
      // The usual group: the outcomes and their activities in one statement, its own transaction.
      const activities = prepareActivities(outcomes.flatMap((o) => o.activities.map((a) => ({ ...a, email: o.email }))));
      // One rollup shard for the whole group (as acceptance does): its counts take one row per
      // type, not one per type and shard, so a commit updates two rollup rows instead of a dozen
      // and concurrent lanes (on other shards) do not wait on each other's row locks.
      const shard = activities[0]?.shard ?? 0;
      for (const a of activities) a.shard = shard;
      const done = new Set(await new OutcomeRepository(this.orm.em.fork() as EntityManager).recordWithActivities(outcomes.map((o) => o.row), activities));
      countDeliveries(outcomes.filter((o) => done.has(o.row.id)));
      return;
    }
    // A hard bounce also suppresses its recipient, in the same transaction. One transaction on a plain fork (begin/commit): recordActivities' live notices go out when
    // it commits (lib/after-commit.ts), and nothing of it is kept once it ends.
    const tx = this.orm.em.fork() as EntityManager;
    await tx.begin();
    let mine: Outcome[];
    try {
      const done = new Set(await new OutcomeRepository(tx).record(outcomes.map((o) => o.row)));
      mine = outcomes.filter((o) => done.has(o.row.id));
      await recordActivities(
        tx,
        mine.flatMap((o) => o.activities.map((a) => ({ ...a, email: o.email }))),
      );
      for (const o of mine) {
        if (!o.hardBounce) continue;
        await suppressRecipient(tx, {
          accountId: o.email.account_id,
          domainId: o.email.domain_id,
          recipientId: o.hardBounce.recipientId,
          list: 'hard_bounces',
          reason: o.hardBounce.reason,
        });
      }
      await tx.commit();
    } catch (err) {
      await tx.rollback().catch(() => undefined);
      throw err;
    }
    countDeliveries(mine);
  }
}

/** postbox_email_deliveries_total, one increment per outcome status of a group. */
function countDeliveries(outcomes: Outcome[]): void {
  const by = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.row.status} ${deliveryReason(o.row.status, o.row.response)}`;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  for (const [key, n] of by) {
    const [outcome, reason] = key.split(' ');
    emailDeliveries.inc({ outcome, reason }, n);
  }
}
