import type { Opt } from '@mikro-orm/core';
import { PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../lib/ids.js';

/**
 * Columns every stored resource has: an opaque id and the two timestamps. `Opt` tells em.create
 * they have defaults, so writes are type-checked without listing them (the same for any column
 * with a default in an entity).
 */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', onUpdate: () => new Date() })
  updated_at: Opt<Date> = new Date();
}
