import { PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../lib/ids.js';

/** Columns every stored resource has: an opaque id and the two timestamps. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'string', length: 32 })
  id: string = newId();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Date = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', onUpdate: () => new Date() })
  updated_at: Date = new Date();
}
