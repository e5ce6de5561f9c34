import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';
import { messageShown } from '../messages/message.status.js';
import { Recipient } from './recipient.entity.js';

/** One email sent to a recipient, as the recipient's detail lists it. */
export interface RecipientEmailRow {
  id: string;
  message_id: string;
  from_email: string;
  subject: string;
  status: string;
  tags: string[] | null;
  created_at: unknown;
}

export class RecipientRepository {
  constructor(private readonly em: EntityManager) {}

  /** The domain's recipients of these (lower-cased) addresses, whatever the case they were stored in. */
  byEmails(domainId: string, emails: string[]): Promise<Recipient[]> {
    return this.em.find(Recipient, { domain: domainId, [raw((a) => `lower(${a}.email)`)]: { $in: emails } });
  }

  /** The latest `limit` emails sent to a recipient of the account, newest first. */
  latestEmails(recipientId: string, accountId: string, limit: number): Promise<RecipientEmailRow[]> {
    return sqlRows<RecipientEmailRow>(
      this.em,
      `select e.id, e.message_id, m.from_email, e.subject, e.status, e.tags, e.created_at
        from emails e join messages m on m.id = e.message_id and ${messageShown('m')}
        where e.recipient_id = $1 and e.account_id = $2
        order by e.created_at desc, e.id desc limit $3`,
      [recipientId, accountId, limit],
    );
  }
}
