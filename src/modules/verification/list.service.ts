import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../services.js';
import { takeCredits } from './credits.js';
import { EmailVerificationList } from './list.entity.js';
import type { CreateVerificationListArgs, VerificationListArgs, VerificationListResultsArgs, VerificationListsArgs } from './list.inputs.js';
import { verificationListJob } from './list.job.js';
import { newId } from '../../lib/ids.js';
import { settleCredits } from './list.run.js';
import { listPageMeta, toVerificationList, type ListPageMeta, type ListResultsPage, type ListView } from './list.view.js';
import { isIn, LIST_ADDRESS, STARTABLE_LIST, VERIFYING, type ListStatus } from './statuses.js';
import { EmailVerification } from './verification.entity.js';
import { VerificationRepository } from './verification.repository.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** Verification lists are per account, like single checks: no domain is involved. */
export class VerificationListService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: AppServices,
  ) {}

  async create(auth: Actor, args: CreateVerificationListArgs): Promise<ListView> {
    const list = await this.em.transactional(async (tx) => {
      const row = tx.create(EmailVerificationList, { account: auth.accountId, name: args.name, total: args.emails.length });
      await tx.flush();
      // The list's order is the upload order: created_at steps by a millisecond per address.
      const base = row.created_at.getTime();
      args.emails.forEach((address, i) => {
        const at = new Date(base + i);
        tx.create(EmailVerification, { account: auth.accountId, kind: LIST_ADDRESS, list_id: row.id, address, created_at: at, updated_at: at });
      });
      await tx.flush();
      return row;
    });
    return toVerificationList(list, {});
  }

  async list(auth: Actor, args: VerificationListsArgs): Promise<{ data: ListView[]; meta: ListPageMeta }> {
    const rows = await this.em.find(
      EmailVerificationList,
      { account: auth.accountId },
      { orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    const counts = await this.counts(rows.map((r) => r.id));
    return { data: rows.map((r) => toVerificationList(r, counts.get(r.id)!)), meta: listPageMeta(args, rows.length) };
  }

  async get(auth: Actor, args: VerificationListArgs): Promise<ListView> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id: args.email_verification_id });
    let emails: ListResultsPage | null = null;
    if (args.detailed) {
      if (args.limit < 1) throw errors.invalid('limit', msg.min('limit', 1));
      if (args.limit > 100) throw errors.invalid('limit', msg.max('limit', 100));
      emails = await this.page(list.id, args);
    }
    return toVerificationList(list, (await this.counts([list.id])).get(list.id)!, emails);
  }

  async results(auth: Actor, args: VerificationListResultsArgs): Promise<ListResultsPage> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id: args.email_verification_id });
    return this.page(list.id, args);
  }

  private async page(listId: string, args: { page: number; limit: number }): Promise<ListResultsPage> {
    const rows = await this.em.find(
      EmailVerification,
      { list_id: listId, kind: LIST_ADDRESS },
      { orderBy: { created_at: 'asc', id: 'asc' }, limit: args.limit, offset: offsetOf(args), fields: ['address', 'result'] },
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
    if (!isIn(STARTABLE_LIST, list.status)) throw errors.invalid('email_verification_id', notStartable(list.status));
    await this.em.transactional(async (tx) => {
      const fresh = list.status === 'created';
      const run_id = newId();
      const moved = await tx.nativeUpdate(
        EmailVerificationList,
        { id, status: list.status },
        fresh ? { status: VERIFYING, verification_started: new Date(), credits_reserved: list.total, run_id } : { status: VERIFYING, run_id },
      );
      if (!moved) throw errors.invalid('email_verification_id', notStartable(VERIFYING));
      if (fresh) await takeCredits(tx, auth.accountId, list.total);
      await enqueue(tx, this.services.boss, verificationListJob, { list_id: id, run_id });
    });
    return 'The verification of the list has started.';
  }

  /** Stops taking addresses; a paused list resumes through start. */
  async pause(auth: Actor, id: string): Promise<ListView> {
    return this.move(auth, id, [VERIFYING], 'paused');
  }

  /** Ends the list; credits of the addresses not verified yet go back to the account. */
  async cancel(auth: Actor, id: string): Promise<ListView> {
    return this.move(auth, id, ['created', 'verifying', 'paused'], 'canceled');
  }

  private async move(auth: Actor, id: string, from: ListStatus[], to: ListStatus): Promise<ListView> {
    await findOwned(this.em, EmailVerificationList, auth, { id });
    await this.em.transactional(async (tx) => {
      const fields = to === 'canceled' ? { status: to, verification_ended: new Date() } : { status: to };
      const moved = await tx.nativeUpdate(EmailVerificationList, { id, status: { $in: from } }, fields);
      if (!moved) throw errors.invalid('email_verification_id', `The list cannot be ${to} in its current state.`);
      if (to === 'canceled') {
        await settleCredits(tx, id);
      }
    });
    const list = await this.em.findOneOrFail(EmailVerificationList, { id }, { refresh: true });
    return toVerificationList(list, (await this.counts([id])).get(id)!);
  }

  private counts(listIds: string[]) {
    return new VerificationRepository(this.em).resultCounts(listIds);
  }
}

function notStartable(status: string): string {
  return `The list cannot be started while it is ${status}.`;
}
