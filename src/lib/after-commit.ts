import type { EntityManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/** Where notices go once their transaction committed (the app's pubsub). */
export interface NoticeSink {
  /** Sent only if some process listens to `topic`. */
  live(topic: string, detail: unknown): void;
  /** Sent whoever listens (cache invalidations, revocations). */
  publish(topic: string, detail: unknown): unknown;
}

interface Pending {
  topic: string;
  detail: unknown;
  always: boolean;
}

/**
 * The sink of each ORM, found from any of its EntityManagers by their configuration (forks share
 * it; a transaction's fork gets a clone of the event manager, so that cannot be the key).
 */
const sinks = new WeakMap<object, NoticeSink>();
/** Notices waiting for their transaction (or savepoint) to commit, by transaction context. */
const pending = new WeakMap<object, Pending[]>();
/** A savepoint's enclosing transaction: committing a savepoint hands its notices to it. */
const parentOf = new WeakMap<object, object>();
/** The enclosing transaction of a savepoint being opened, by the EntityManager opening it. */
const opening = new WeakMap<object, object>();

/**
 * Sends `detail` to live subscribers of `topic` in every process once the transaction `em` is in
 * commits, and never if it rolls back (a savepoint rolled back drops its own). Outside a
 * transaction it is sent at once. Either way it goes out with other notices in one batched NOTIFY
 * on the pubsub's own pool, not in the caller's transaction, so a committing transaction does not
 * wait for the NOTIFY queue; it is sent only when some process listens to `topic` (unless
 * `always`, for invalidations every process must hear), and may be lost (NOTIFY keeps no backlog).
 * Does nothing when no pubsub is bound to the ORM (scripts, migrations).
 */
export function afterCommit(em: EntityManager, topic: string, detail: unknown, opts: { always?: boolean } = {}): void {
  const sink = sinks.get(em.config);
  if (!sink) return;
  const always = opts.always ?? false;
  const ctx = em.isInTransaction() ? (em.getTransactionContext() as object | undefined) : undefined;
  if (!ctx) {
    if (always) sink.publish(topic, detail);
    else sink.live(topic, detail);
    return;
  }
  const list = pending.get(ctx);
  if (list) list.push({ topic, detail, always });
  else pending.set(ctx, [{ topic, detail, always }]);
}

/**
 * Binds an ORM (any of its EntityManagers) to the pubsub that sends its after-commit notices,
 * through MikroORM's transaction events: they fire for `em.transactional`, `em.begin/commit` and
 * nested transactions (savepoints) alike.
 */
export function bindAfterCommit(em: EntityManager, sink: NoticeSink): void {
  if (sinks.has(em.config)) return;
  sinks.set(em.config, sink);
  const subscriber: EventSubscriber = {
    beforeTransactionStart(args: TransactionEventArgs) {
      // Only a savepoint's start names a transaction: the one it opens inside.
      if (args.transaction) opening.set(args.em, args.transaction as object);
    },
    afterTransactionStart(args: TransactionEventArgs) {
      const parent = opening.get(args.em);
      if (parent && args.transaction && parent !== args.transaction) parentOf.set(args.transaction as object, parent);
      opening.delete(args.em);
    },
    afterTransactionCommit(args: TransactionEventArgs) {
      const ctx = args.transaction as object | undefined;
      const list = ctx && pending.get(ctx);
      if (!list) return;
      pending.delete(ctx);
      const parent = parentOf.get(ctx);
      if (parent) {
        const up = pending.get(parent);
        if (up) up.push(...list);
        else pending.set(parent, list);
        return;
      }
      for (const n of list) {
        if (n.always) sink.publish(n.topic, n.detail);
        else sink.live(n.topic, n.detail);
      }
    },
    afterTransactionRollback(args: TransactionEventArgs) {
      if (args.transaction) pending.delete(args.transaction as object);
    },
  };
  // Transaction forks clone the event manager with its subscribers, so they have it too.
  em.getEventManager().registerSubscriber(subscriber);
}
