import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { assertDomainAccess } from '../../graphql/auth.js';
import type { Auth } from '../../graphql/context.js';
import { errors } from '../../graphql/errors.js';
import { offsetOf, pageMeta } from '../../graphql/pagination.js';
import { Domain } from '../domains/domain.entity.js';
import { Recipient } from './recipient.entity.js';
import type { RecipientListArgs } from './recipient.inputs.js';

/**
 * Deleting a recipient is soft: the row stays (suppressions and history refer to it) with
 * `deleted_at` set, and from then on it is hidden like a missing one. Sending to the address
 * again brings it back.
 */
export class RecipientService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Auth, args: RecipientListArgs) {
    const where: Record<string, unknown> = { account: auth.accountId, deleted_at: null };
    if (args.domain_id) {
      const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) throw errors.notFound();
      assertDomainAccess(auth, domain.id);
      where.domain = domain.id;
    } else if (auth.domainId) {
      where.domain = auth.domainId;
    }
    const [rows, total] = await this.em.findAndCount(Recipient, where, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Auth, id: string): Promise<Recipient> {
    return findOwned(this.em, Recipient, auth, { id, deleted_at: null }, ['domain']);
  }

  async remove(auth: Auth, id: string): Promise<boolean> {
    const recipient = await this.get(auth, id);
    recipient.deleted_at = new Date();
    await this.em.flush();
    return true;
  }
}
