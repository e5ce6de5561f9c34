import type { EntityManager } from '@mikro-orm/postgresql';
import { domainsScope, findOwned } from '../../db/scoped.js';
import { asDate } from '../../db/sql.js';
import { Recipient } from './recipient.entity.js';
import { RecipientRepository } from './recipient.repository.js';
import type { RecipientListArgs } from './recipient.inputs.js';
import type { RecipientEmail } from './recipient.type.js';
import { type Actor } from '../../core/actor.js';
import { offsetOf, pageMeta } from '../../core/page.js';

/**
 * The detail shows at most this many emails: a recipient can receive thousands, and the email
 * log (GET /v1/emails?recipient=...) pages through all of them.
 */
export const RECIPIENT_EMAILS_CAP = 100;

/**
 * Deleting a recipient is soft: the row stays (suppressions and history refer to it) with
 * `deleted_at` set, and from then on it is hidden like a missing one. Sending to the address
 * again brings it back.
 */
export class RecipientService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: RecipientListArgs) {
    const where: Record<string, unknown> = { account: auth.accountId, deleted_at: null };
    const domainIds = await domainsScope(this.em, auth, args.domain_id);
    if (domainIds) where.domain = { $in: [...domainIds] };
    const [rows, total] = await this.em.findAndCount(Recipient, where, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<Recipient> {
    return findOwned(this.em, Recipient, auth, { id, deleted_at: null }, ['domain']);
  }

  /** The latest emails sent to a recipient already loaded through `get` (so owned and visible). */
  async emails(recipient: Recipient): Promise<RecipientEmail[]> {
    const rows = await new RecipientRepository(this.em).latestEmails(recipient.id, recipient.account.id, RECIPIENT_EMAILS_CAP);
    return rows.map((r) => ({
      id: r.id,
      message_id: r.message_id,
      from: r.from_email,
      subject: r.subject,
      status: r.status,
      tags: r.tags?.length ? r.tags : null,
      created_at: asDate(r.created_at),
    }));
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const recipient = await this.get(auth, id);
    recipient.deleted_at = new Date();
    await this.em.flush();
    return true;
  }
}
