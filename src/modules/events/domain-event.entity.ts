import type { Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../../lib/ids.js';

/**
 * The internal event log: every state change that a customer may be told about is written here
 * in the same transaction as the change. The webhook engine reads it; nothing here knows about HTTP.
 */
@Entity({ tableName: 'domain_events' })
@Index({ properties: ['account_id', 'created_at'] })
// The dispatcher's queue: undispatched events in the order it takes them (webhooks/engine.repository.ts).
@Index({
  name: 'domain_events_undispatched_index',
  expression: 'create index "domain_events_undispatched_index" on "domain_events" ("created_at", "id") where "dispatched_at" is null',
})
export class DomainEvent {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  /** Null for platform-wide events (a maintenance window). */
  @Property({ type: 'string', length: 32, nullable: true })
  account_id: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  domain_id: string | null = null;

  @Property({ type: 'string', length: 64 })
  type!: string;

  @Property({ type: 'json' })
  payload: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();

  /** When the webhook dispatcher turned it into deliveries; null while it waits. */
  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  dispatched_at: Date | null = null;
}

@Entity({ tableName: 'maintenance_windows' })
export class MaintenanceWindow {
  @PrimaryKey({ type: 'string', length: 32 })
  id: Opt<string> = newId();

  @Property({ type: 'string', length: 500 })
  note: Opt<string> = '';

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  started_at: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  ended_at: Date | null = null;
}
