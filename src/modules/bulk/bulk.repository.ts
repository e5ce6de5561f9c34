import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BulkEmail } from './bulk-email.entity.js';

export class BulkRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * A page of the account's bulk requests, newest first. `within`: only the requests made within
   * these domains (a token's one domain, or a user's several, every one of them among `within`),
   * as the single read shows them; one made for the whole account is never among them.
   */
  page(accountId: string, within: readonly string[] | null, limit: number, offset: number): Promise<BulkEmail[]> {
    const where: FilterQuery<BulkEmail> = { account: accountId };
    if (within) {
      const own = [...within];
      // $overlap as well: an empty list is contained in any, and says no domain at all.
      where.$or = [{ token_domain_id: { $in: own } }, { token_domain_id: null, token_domain_ids: { $contained: own, $overlap: own } }];
    }
    return this.em.find(BulkEmail, where, { orderBy: { created_at: 'desc', id: 'desc' }, limit, offset });
  }
}
