import type { EntityManager } from '@mikro-orm/postgresql';
import type { RecipientList } from './suppression.entity.js';
import { SuppressionRepository } from './suppression.repository.js';

/**
 * Puts a recipient on one of its domain's lists from inside the sending pipeline (a hard bounce,
 * an unsubscribe), in the caller's transaction. Under the same advisory lock the API's adds take,
 * so an address is listed once however many events arrive together.
 */
export async function suppressRecipient(
  tx: EntityManager,
  entry: { accountId: string; domainId: string; recipientId: string; list: RecipientList; reason: string },
): Promise<void> {
  const repo = new SuppressionRepository(tx);
  await repo.lockList(entry.accountId, entry.list, entry.domainId);
  await repo.addIfAbsent({ ...entry, reason: entry.reason.slice(0, 2000) });
}
