import type { Opt } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { BaseEntity } from '../../db/base.entity.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';

export type TokenStatus = 'pause' | 'unpause';

@Entity({ tableName: 'api_tokens' })
export class ApiToken extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index()
  account!: Account;

  @Property({ type: 'string', length: 50 })
  name!: string;

  /** sha256 of the secret; the secret itself is shown once and never stored. */
  @Property({ type: 'string', length: 64, unique: true })
  token_hash!: string;

  @Property({ type: 'string', length: 10 })
  status: Opt<TokenStatus> = 'unpause';

  @Property({ type: 'text[]' })
  scopes: string[] = [];

  @ManyToOne(() => Domain, { nullable: true, deleteRule: 'cascade' })
  domain: Domain | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  last_used_at: Opt<Date> | null = null;
}
