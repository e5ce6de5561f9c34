import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { settleCredits, takeCredits } from './credits.js';
import { EmailVerificationList } from './list.entity.js';
import type { AddVerificationListEmailsArgs, CreateVerificationListArgs, VerificationListArgs, VerificationListResultsArgs, VerificationListsArgs } from './list.inputs.js';
import { verificationListJob } from './list.job.js';
import { newId } from '../../lib/ids.js';
import { listPageMeta, toVerificationList, type ListPageMeta, type ListResultsPage, type ListView } from './list.view.js';
import { isIn, LIST_ADDRESS, STARTABLE_LIST, UPLOADING, VERIFYING, type ListStatus, type VerificationResult } from './verification.statuses.js';
import { appendChunk, emptyUpload, storeAddresses } from './list.upload.js';
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

  /** Stores a list `created`, or `uploading` (its first chunk) when the caller sends it in chunks. */
  async create(auth: Actor, args: CreateVerificationListArgs): Promise<ListView> {
    const list = await this.em.transactional(async (tx) => {
      const status = args.uploading ? UPLOADING : 'created';
      const row = tx.create(EmailVerificationList, { account: auth.accountId, name: args.name, total: args.emails.length, status });
      await tx.flush();
      await storeAddresses(tx, auth.accountId, row.id, args.emails);
      return row;
    });
    return toVerificationList(list, {});
  }

  /** Adds a chunk of addresses to an `uploading` list (422 in any other state). */
  async addEmails(auth: Actor, args: AddVerificationListEmailsArgs): Promise<ListView> {
    const id = args.email_verification_id;
    await findOwned(this.em, EmailVerificationList, auth, { id });
    await this.em.transactional((tx) => appendChunk(tx, auth.accountId, id, args.emails));
    return this.view(id);
  }

  /** Ends an upload: the list moves to `created`, the state SPEC.md names after `uploading`. */
  async finishUpload(auth: Actor, id: string): Promise<ListView> {
    const list = await findOwned(this.em, EmailVerificationList, auth, { id });
    if (list.status === UPLOADING && list.total < 1) throw emptyUpload();
    const moved = await this.em.nativeUpdate(EmailVerificationList, { id, status: UPLOADING }, { status: 'created', updated_at: new Date() });
    if (!moved) throw errors.invalid('email_verification_id', `The list is not uploading; it is ${list.status}.`);
    return this.view(id);
  }

  private async view(id: string): Promise<ListView> {
    const list = await this.em.findOneOrFail(EmailVerificationList, { id }, { refresh: true });
    return toVerificationList(list, (await this.counts([id])).get(id)!);
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

  private async page(listId: string, args: { page: number; limit: number; result?: string[] | null; results?: string[] | null }): Promise<ListResultsPage> {
    const wanted = [...(args.result ?? []), ...(args.results ?? [])] as VerificationResult[];
    const only = wanted.length ? { result: { $in: wanted } } : {};
    const rows = await this.em.find(
      EmailVerification,
      { list_id: listId, kind: LIST_ADDRESS, ...only },
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
    return this.move(auth, id, [UPLOADING, 'created', 'verifying', 'paused'], 'canceled');
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
    return this.view(id);
  }

  private counts(listIds: string[]) {
    return new VerificationRepository(this.em).resultCounts(listIds);
  }
}

function notStartable(status: string): string {
  return `The list cannot be started while it is ${status}.`;
}
