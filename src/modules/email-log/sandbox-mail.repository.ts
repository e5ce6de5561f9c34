import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRow, sqlRows, textArray, Where } from '../../db/sql.js';

export interface SandboxMailRow {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  created_at: Date;
}

export interface SandboxMailDetailRow extends SandboxMailRow {
  text: string;
  html: string | null;
}

/** Which of an account's captured system mail a caller reads: its kinds, and its domains (null: any, and mail of no domain). */
export interface SandboxMailReach {
  accountId: string;
  kinds: readonly string[];
  domainIds: readonly string[] | null;
}

/** Mail the service wrote about an account that the capture transport kept (captured_mails with an account_id). */
export class SandboxMailRepository {
  constructor(private readonly em: EntityManager) {}

  private where(reach: SandboxMailReach): Where {
    const w = new Where().add('c.account_id = ?', reach.accountId).add('c.kind = any(?::text[])', textArray(reach.kinds));
    if (reach.domainIds) w.add('c.domain_id = any(?::text[])', textArray(reach.domainIds));
    return w;
  }

  /** Newest first, and how many there are in all. */
  async page(reach: SandboxMailReach, page: { limit: number; offset: number }): Promise<{ rows: SandboxMailRow[]; total: number }> {
    const w = this.where(reach);
    const scope = [...w.params];
    const rows = await sqlRows<SandboxMailRow>(
      this.em,
      `select c.id, c.kind, c."from", c."to", c.subject, c.created_at from captured_mails c where ${w.sql}
        order by c.created_at desc, c.id desc limit ${w.param(page.limit)} offset ${w.param(page.offset)}`,
      w.params,
    );
    const count = await sqlRow<{ n: number }>(this.em, `select count(*)::int as n from captured_mails c where ${this.where(reach).sql}`, scope);
    return { rows, total: count?.n ?? 0 };
  }

  async one(reach: SandboxMailReach, id: string): Promise<SandboxMailDetailRow | null> {
    const w = this.where(reach).add('c.id = ?', id);
    return sqlRow<SandboxMailDetailRow>(this.em, `select c.id, c.kind, c."from", c."to", c.subject, c.created_at, c.text, c.html from captured_mails c where ${w.sql}`, w.params);
  }
}
