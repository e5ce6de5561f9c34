import type { EntityManager } from '@mikro-orm/postgresql';
import { asDate, sqlRow, sqlRows } from '../../db/sql.js';
import type { TokenStatus } from './token.entity.js';

/** A token as lists read it: the columns the API shows, plain. */
export interface TokenRow {
  id: string;
  name: string;
  status: TokenStatus;
  created_at: Date;
  scopes: string[];
  domain_id: string | null;
}

// Scopes come as one text (they are names from SCOPES, which hold no space): splitting it is
// cheaper than the driver's text[] parser, on every row of every page.
type StoredRow = Omit<TokenRow, 'scopes'> & { scopes: string; total: string | number };

const toRow = ({ total: _total, ...r }: StoredRow): TokenRow => ({ ...r, created_at: asDate(r.created_at), scopes: r.scopes ? r.scopes.split(' ') : [] });

const COLUMNS = "id, name, status, created_at, array_to_string(scopes, ' ') as scopes, domain_id, count(*) over () as total";
const ORDER = 'order by created_at desc, id desc limit $2 offset $3';

/** The token list's SQL: one prepared statement for the account, one for a domain-limited caller. */
export class TokenRepository {
  constructor(private readonly em: EntityManager) {}

  /** One page of the account's tokens (or of one domain's), newest first. */
  async list(accountId: string, domainId: string | null, limit: number, offset: number): Promise<TokenRow[]> {
    return (await this.rows(accountId, domainId, limit, offset)).map(toRow);
  }

  /**
   * One page with the count of all the tokens it pages through, in the same statement
   * (`count(*) over ()`, computed before the limit); a page past the end has no row to carry it,
   * and counts on its own.
   */
  async page(accountId: string, domainId: string | null, limit: number, offset: number): Promise<{ rows: TokenRow[]; total: number }> {
    const rows = await this.rows(accountId, domainId, limit, offset);
    const total = rows.length ? Number(rows[0].total) : offset === 0 ? 0 : await this.count(accountId, domainId);
    return { rows: rows.map(toRow), total };
  }

  private rows(accountId: string, domainId: string | null, limit: number, offset: number): Promise<StoredRow[]> {
    return domainId
      ? sqlRows<StoredRow>(
          this.em,
          { name: 'tokens.list.domain', text: `select ${COLUMNS} from api_tokens where account_id = $1 and domain_id = $4 ${ORDER}` },
          [accountId, limit, offset, domainId],
        )
      : sqlRows<StoredRow>(this.em, { name: 'tokens.list', text: `select ${COLUMNS} from api_tokens where account_id = $1 ${ORDER}` }, [accountId, limit, offset]);
  }

  /** How many tokens `list` pages through, for the full pager's `total`. */
  async count(accountId: string, domainId: string | null): Promise<number> {
    const row = domainId
      ? await sqlRow<{ n: number }>(this.em, { name: 'tokens.count.domain', text: 'select count(*)::int as n from api_tokens where account_id = $1 and domain_id = $2' }, [accountId, domainId])
      : await sqlRow<{ n: number }>(this.em, { name: 'tokens.count', text: 'select count(*)::int as n from api_tokens where account_id = $1' }, [accountId]);
    return row?.n ?? 0;
  }

  /** What a live stream's access depends on, for the tokens of the open streams (http/stream-guard.ts). */
  async accessOf(ids: string[]): Promise<{ id: string; status: TokenStatus; scopes: string[]; domain_id: string | null }[]> {
    return sqlRows(this.em, 'select id, status, scopes, domain_id from api_tokens where id = any($1::text[])', [ids]);
  }
}
