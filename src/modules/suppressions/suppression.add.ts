import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { RecipientList } from './suppression.service.js';

/**
 * Puts a recipient on one of its domain's lists from inside the sending pipeline (a hard bounce,
 * an unsubscribe), in the caller's transaction. Under the same advisory lock the API's adds take,
 * so an address is listed once however many events arrive together.
 */
export async function suppressRecipient(
  tx: EntityManager,
  entry: { accountId: string; domainId: string; recipientId: string; list: RecipientList; reason: string },
): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`suppressions:${entry.accountId}:${entry.list}:${entry.domainId}`]);
  await tx.execute(
    `insert into suppressions (id, created_at, updated_at, account_id, domain_id, list, recipient_id, reason)
     select ?, now(), now(), ?, ?, ?, ?, ?
      where not exists (select 1 from suppressions where domain_id = ? and list = ? and recipient_id = ?)`,
    [newId(), entry.accountId, entry.domainId, entry.list, entry.recipientId, entry.reason.slice(0, 2000), entry.domainId, entry.list, entry.recipientId],
  );
}
