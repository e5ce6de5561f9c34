import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * TLS sessions delivery made to a recipient domain that asks for TLS reports (RFC 8460), counted
 * per UTC day, policy, MX host and result ('' for success) by every worker
 * (tls-session.recorder.ts), and reported and deleted the next day (tls-report.worker.ts).
 */
@Entity({ tableName: 'tls_sessions' })
export class TlsSession {
  @PrimaryKey({ type: 'date' })
  day!: string;

  @PrimaryKey({ type: 'string', length: 253 })
  policy_domain!: string;

  @PrimaryKey({ type: 'string', length: 20 })
  policy_type!: string;

  @PrimaryKey({ type: 'string', length: 253 })
  mx_host!: string;

  @PrimaryKey({ type: 'string', length: 40 })
  result_type!: string;

  /** The MTA-STS policy's lines; the last one seen that day. */
  @Property({ type: 'json', columnType: 'jsonb' })
  policy_string!: string[];

  @Property({ type: 'integer' })
  count!: number;
}
