import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

/** A named group of templates within an account. */
@Entity({ tableName: 'template_categories' })
@Unique({ properties: ['account', 'name'] })
export class TemplateCategory extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @Property({ type: 'string', length: 50 })
  name!: string;
}

/**
 * An email template. `created_via` records where it was made: only templates made through the
 * API may be updated through it (SPEC.md); the others answer 404 there.
 */
@Entity({ tableName: 'templates' })
@Index({ properties: ['account', 'created_at'] })
export class Template extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Domain, { nullable: true, deleteRule: 'set null' })
  domain: Domain | null = null;

  /**
   * Every category the template was given, in the order given (SPEC.md's `categories`). The first
   * that still exists is the single answer's `category`. Ids are checked against the account when
   * saved; deleting a category takes it out of these (TemplateRepository.forgetCategory).
   */
  @Property({ type: 'text[]' })
  category_ids: Opt<string[]> = [];

  @Property({ type: 'string', length: 50 })
  name: Opt<string> = 'Template';

  @Property({ type: 'string', length: 500, nullable: true })
  description: string | null = null;

  @Property({ type: 'string', length: 20 })
  type: Opt<string> = 'html';

  @Property({ type: 'text' })
  html!: string;

  @Property({ type: 'text' })
  text!: string;

  /** Defaults a send may leave out (SPEC.md "Sending email": from and subject). */
  @Property({ type: 'string', length: 998, nullable: true })
  default_subject: string | null = null;

  @Property({ type: 'string', length: 320, nullable: true })
  default_from_email: string | null = null;

  @Property({ type: 'string', length: 191, nullable: true })
  default_from_name: string | null = null;

  @Property({ type: 'text[]' })
  tags: Opt<string[]> = [];

  /** The variables subject, html and text read from personalization data (template.engine.ts), kept for the listing. */
  @Property({ type: 'json', nullable: true })
  variables: Opt<Record<string, unknown>> | null = null;

  @Property({ type: 'string', length: 500, nullable: true })
  image_path: string | null = null;

  @Property({ type: 'string', length: 10 })
  created_via: Opt<'api' | 'app'> = 'api';
}
