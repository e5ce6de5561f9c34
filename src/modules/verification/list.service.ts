import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../services.js';
import { takeCredits } from './credits.js';
import { EmailVerificationList, type ListStatus } from './list.entity.js';
import type { CreateVerificationListArgs, VerificationListArgs, VerificationListResultsArgs, VerificationListsArgs } from './list.inputs.js';
import { verificationListJob } from './list.job.js';
import { newId } from '../../lib/ids.js';
import { resultCounts, settleCredits } from './list.run.js';
import { listPageMeta, toVerificationList, type EmailVerificationListType, type VerificationListResultsPage } from './list.type.js';
import { EmailVerification } from './verification.entity.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** Verification lists are per account, like single checks: no domain is involved. */
export class VerificationListService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: AppServices,
  ) {}

  async create(auth: Actor, args: CreateVerificationListArgs): Promise<EmailVerificationListType> {
    const list = await this.em.transactional(async (tx) => {
      const row = tx.create(EmailVerificationList, { account: auth.accountId, name: args.name, total: args.emails.length } as never);
      await tx.flush();
      // The list's order is the upload order: created_at steps by a millisecond per address.
      const base = row.created_at.getTime();
      args.emails.forEach((address, i) => {
        const at = new Date(base + i);
        tx.create(EmailVerification, { account: auth.accountId, kind: 'list', list_id: row.id, address, created_at: at, updated_at: at } as never);
      });
      await tx.flush();
      return row;
    });
    return toVerificationList(list, {});
  }

  async list(auth: Actor, args: VerificationListsArgs) {
    const rows = await this.em.find(
      EmailVerificationList,
      { account: auth.accountId },
      { orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    const counts = await resultCounts(this.em, rows.map((r) => r.id));
    return { data: rows.map((r) => toVerificationList(r, counts.get(r.id)!)), meta: listPageMeta(args, rows.length) };
  }

  async get(auth: Actor, args: VerificationListArgs): Promise<EmailVerificationListType> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id: args.email_verification_id });
    let emails: VerificationListResultsPage | null = null;
    if (args.detailed) {
      if (args.limit < 1) throw errors.invalid('limit', msg.min('limit', 1));
      if (args.limit > 100) throw errors.invalid('limit', msg.max('limit', 100));
      emails = await this.page(list.id, args);
    }
    return toVerificationList(list, (await resultCounts(this.em, [list.id])).get(list.id)!, emails);
  }

  async results(auth: Actor, args: VerificationListResultsArgs): Promise<VerificationListResultsPage> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id: args.email_verification_id });
    return this.page(list.id, args);
  }

  private async page(listId: string, args: { page: number; limit: number }): Promise<VerificationListResultsPage> {
    const rows = await this.em.find(
      EmailVerification,
      { list_id: listId, kind: 'list' },
      { orderBy: { created_at: 'asc', id: 'asc' }, limit: args.limit, offset: offsetOf(args), fields: ['address', 'result'] as never },
    );
    return { data: rows.map((r) => ({ address: r.address, result: r.result })), meta: listPageMeta(args, rows.length) };
  }

  /**
   * Starts a `created` list, reserving one credit per address (402 and nothing starts if short),
   * or resumes a `paused` one on the credits it already holds. The job is enqueued in the same
   * transaction, so a started list always has a job.
   */
  async start(auth: Actor, id: string): Promise<string> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id });
    if (list.status !== 'created' && list.status !== 'paused') throw errors.invalid('email_verification_id', notStartable(list.status));
    await this.em.transactional(async (tx) => {
      const fresh = list.status === 'created';
      const run_id = newId();
      const moved = await tx.nativeUpdate(
        EmailVerificationList,
        { id, status: list.status },
        fresh ? { status: 'verifying', verification_started: new Date(), credits_reserved: list.total, run_id } : { status: 'verifying', run_id },
      );
      if (!moved) throw errors.invalid('email_verification_id', notStartable('verifying'));
      if (fresh) await takeCredits(tx, auth.accountId, list.total);
      await enqueue(tx, this.services.boss, verificationListJob, { list_id: id, run_id });
    });
    return 'The verification of the list has started.';
  }

  /** Stops taking addresses; a paused list resumes through start. */
  async pause(auth: Actor, id: string): Promise<EmailVerificationListType> {
    return this.move(auth, id, ['verifying'], 'paused');
  }

  /** Ends the list; credits of the addresses not verified yet go back to the account. */
  async cancel(auth: Actor, id: string): Promise<EmailVerificationListType> {
    return this.move(auth, id, ['created', 'verifying', 'paused'], 'canceled');
  }

  private async move(auth: Actor, id: string, from: ListStatus[], to: ListStatus): Promise<EmailVerificationListType> {
    await findOwned(this.em, EmailVerificationList, auth, { id });
    await this.em.transactional(async (tx) => {
      const fields = to === 'canceled' ? { status: to, verification_ended: new Date() } : { status: to };
      const moved = await tx.nativeUpdate(EmailVerificationList, { id, status: { $in: from } }, fields as never);
      if (!moved) throw errors.invalid('email_verification_id', `The list cannot be ${to} in its current state.`);
      if (to === 'canceled') {
        await settleCredits(tx, id);
      }
    });
    const list = await this.em.findOneOrFail(EmailVerificationList, { id }, { refresh: true });
    return toVerificationList(list, (await resultCounts(this.em, [id])).get(id)!);
  }
}

function notStartable(status: string): string {
  return `The list cannot be started while it is ${status}.`;
}
