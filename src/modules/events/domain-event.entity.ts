import type { Opt } from '@mikro-orm/core';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { newId } from '../../lib/ids.js';

/**
 * The outbox of internal events: every state change that a customer may be told about is written
 * here in the same transaction as the change, and the webhook dispatcher deletes it in the
 * transaction that turns it into deliveries (engines/webhooks/dispatch.repository.ts TAKE_EVENTS), so what
 * the table holds is the backlog. Nothing here knows about HTTP.
 */
@Entity({ tableName: 'domain_events' })
// The dispatcher's queue: events in the order it takes them.
@Index({ name: 'domain_events_queue_index', properties: ['created_at', 'id'] })
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

  /**
   * Stored as its producer's JSON text (json, not jsonb), which the webhook dispatcher splices into
   * the bodies it posts (migration 20261126150000_events_json).
   */
  @Property({ type: 'json', columnType: 'json' })
  payload: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz(6)' })
  created_at: Opt<Date> = new Date();
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
