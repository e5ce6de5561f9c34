import type { Opt } from '@mikro-orm/core';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * The pace of one destination site from one source address, shared by every worker
 * (delivery-site.repository.ts): when its next message may go under each rate (a GCRA's
 * theoretical arrival time per rate, so no window of a minute or an hour holds more than the
 * rate), and how far a "slow down" answer has slowed it (its level halves the rates, and the
 * site is suspended until `suspended_until`). Rows are written only for sites with a rate or a
 * slow-down; a site without either is read from no row.
 */
@Entity({ tableName: 'delivery_sites' })
export class DeliverySite {
  /** The site's name (lib/shaping.ts SiteTable.siteOf). */
  @PrimaryKey({ type: 'string', length: 255 })
  site!: string;

  /** The local address connections leave from; empty for the machine's default. */
  @PrimaryKey({ type: 'string', length: 64 })
  source!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  minute_at?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  hour_at?: Date | null;

  /** Slow-downs not yet forgiven, as of `slowed_at`: each halves the rates. */
  @Property({ type: 'smallint' })
  slow_level: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  slowed_at?: Date | null;

  @Property({ type: 'datetime', columnType: 'timestamptz(6)', nullable: true })
  suspended_until?: Date | null;
}
