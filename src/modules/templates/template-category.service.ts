import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { Account } from '../accounts/account.entity.js';
import { TemplateCategory } from './template.entity.js';
import { TemplateRepository } from './template.repository.js';
import type { CreateTemplateCategoryArgs, TemplateCategoryListArgs } from './template.inputs.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { type Actor } from '../../core/actor.js';
import { errors, msg } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** Template categories: account-wide names, unique within the account. */
export class TemplateCategoryService {
  constructor(private readonly em: EntityManager) {}

  list(auth: Actor, args: TemplateCategoryListArgs): Promise<TemplateCategory[]> {
    return this.em.find(TemplateCategory, { account: auth.accountId }, {
      orderBy: { name: 'asc', id: 'asc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  async create(auth: Actor, args: CreateTemplateCategoryArgs): Promise<TemplateCategory> {
    const name = args.name.trim();
    if (!name) throw errors.invalid('name', msg.required('name'));
    if (await this.em.count(TemplateCategory, { account: auth.accountId, name })) throw errors.invalid('name', msg.taken('name'));
    const category = this.em.create(TemplateCategory, {
      account: this.em.getReference(Account, auth.accountId),
      name,
    });
    // Two concurrent requests for one name: the unique index decides.
    await takenIfDuplicate('name', () => this.em.flush());
    return category;
  }

  /** Its templates keep existing, with their other categories (or none), in one transaction. */
  async remove(auth: Actor, id: string): Promise<boolean> {
    const category = await findOwned(this.em, TemplateCategory, auth, { id });
    await this.em.transactional(async (em) => {
      await new TemplateRepository(em).forgetCategory(auth.accountId, category.id);
      await em.nativeDelete(TemplateCategory, { id: category.id });
    });
    return true;
  }
}
