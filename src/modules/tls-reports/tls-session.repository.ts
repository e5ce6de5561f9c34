import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../db/sql.js';
import type { SessionCount } from '../../lib/tls-rpt.js';

/** The day's TLS session counts of the recipient domains that ask for TLS reports. */
export class TlsSessionRepository {
  constructor(private readonly em: EntityManager) {}

  /** Adds counts, one statement for all. */
  async add(day: string, counts: SessionCount[]): Promise<void> {
    if (!counts.length) return;
    await sqlRows(
      this.em,
      `insert into tls_sessions as t (day, policy_domain, policy_type, mx_host, result_type, policy_string, count)
       select $1::date, x.policy_domain, x.policy_type, x.mx_host, coalesce(x.result_type, ''), x.policy_string, x.count
         from jsonb_to_recordset($2::jsonb) as x(policy_domain text, policy_type text, mx_host text, result_type text, policy_string jsonb, count int)
       on conflict (day, policy_domain, policy_type, mx_host, result_type)
       do update set count = t.count + excluded.count, policy_string = excluded.policy_string`,
      [day, JSON.stringify(counts)],
    );
  }

  /** The domains with counts on a day, at most `limit`. */
  async domains(day: string, limit: number): Promise<string[]> {
    const rows = await sqlRows<{ policy_domain: string }>(this.em, 'select distinct policy_domain from tls_sessions where day = $1::date order by 1 limit $2', [day, limit]);
    return rows.map((r) => r.policy_domain);
  }

  async countsOf(day: string, domain: string): Promise<SessionCount[]> {
    const rows = await sqlRows<Omit<SessionCount, 'result_type'> & { result_type: string }>(
      this.em,
      `select policy_domain, policy_type, policy_string, mx_host, result_type, count from tls_sessions
        where day = $1::date and policy_domain = $2 order by policy_type, mx_host, result_type`,
      [day, domain],
    );
    return rows.map((r) => ({ ...r, result_type: (r.result_type || null) as SessionCount['result_type'] }));
  }

  /** Deletes a domain's counts of a day (reported), or every count older than `before` (never reported). */
  async clear(day: string, domain: string): Promise<void> {
    await sqlRows(this.em, 'delete from tls_sessions where day = $1::date and policy_domain = $2', [day, domain]);
  }

  async clearBefore(day: string): Promise<void> {
    await sqlRows(this.em, 'delete from tls_sessions where day < $1::date', [day]);
  }
}
