import type { EntityManager } from '@mikro-orm/postgresql';

export type TxEventHandler<T, S> = (tx: EntityManager, data: T, services: S) => Promise<void>;

/**
 * A change a module announces inside its own transaction, for work that belongs to a module
 * above it. The lower module declares and emits the event; the module that depends on it adds
 * the handler. Imports then point one way: sms-numbers says "this number was unpaused", sms
 * (which needs the number entity anyway) sends the texts that waited for it.
 *
 * Handlers run in the emitter's transaction, one after the other: whatever they write or enqueue
 * commits or rolls back with the change that caused it, exactly as if the emitter had done it.
 * `S` is what the emitter hands over of the app's services.
 */
export class TxEvent<T, S> {
  private readonly handlers: TxEventHandler<T, S>[] = [];

  constructor(readonly name: string) {}

  /** Called by the handling module's manifest (modules/<x>/index.ts); the same handler once only. */
  on(handler: TxEventHandler<T, S>): void {
    if (!this.handlers.includes(handler)) this.handlers.push(handler);
  }

  /**
   * An event with no handler means the module that does the work was not loaded: the work
   * would silently not happen, so it fails the emitter's transaction instead.
   */
  async emit(tx: EntityManager, data: T, services: S): Promise<void> {
    if (!this.handlers.length) throw new Error(`no module handles the event ${this.name}`);
    for (const handler of this.handlers) await handler(tx, data, services);
  }
}
