import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRow, sqlRows, textArray } from '../../db/sql.js';
import { Account } from '../accounts/account.entity.js';
import { FAILED_RESULT, LIST_ADDRESS, QUEUED_CHECK, VERIFYING, type VerificationResult, type VerificationStatus } from './verification.statuses.js';

/** How many of a list's addresses ended with each result (results not reached are absent). */
export type ResultCounts = Partial<Record<VerificationResult, number>>;

/** What a finished check stores on its row. */
export interface CheckColumns {
  status: VerificationStatus;
  result: VerificationResult;
  error: string | null;
  suggestion: string | null;
  mx: string | null;
}

/** The SQL of checked addresses, lists and the account's verification credits. */
export class VerificationRepository {
  constructor(private readonly em: EntityManager) {}

  /** Result counts per list, in one grouped query for a whole page of lists. */
  async resultCounts(listIds: string[]): Promise<Map<string, ResultCounts>> {
    const out = new Map<string, ResultCounts>(listIds.map((id) => [id, {}]));
    if (!listIds.length) return out;
    const rows = await sqlRows<{ list_id: string; result: VerificationResult; n: string }>(
      this.em,
      `select list_id, result, count(*) as n from email_verifications
        where list_id = any($1::text[]) and kind = $2 and result is not null
        group by list_id, result`,
      [textArray(listIds), LIST_ADDRESS],
    );
    for (const r of rows) out.get(r.list_id)![r.result] = Number(r.n);
    return out;
  }

  /**
   * The list's reserved credits and how many of its addresses used one (a result other than
   * `failed`), with the list's row locked until the caller's transaction ends.
   */
  async lockCreditUse(listId: string): Promise<{ accountId: string; reserved: number; used: number }> {
    const row = (await sqlRow<{ account_id: string; reserved: number; used: string }>(
      this.em,
      `select l.account_id, l.credits_reserved as reserved,
         (select count(*) from email_verifications v where v.list_id = l.id and v.kind = $1
            and v.result is not null and v.result <> $2) as used
       from email_verification_lists l where l.id = $3 for update`,
      [LIST_ADDRESS, FAILED_RESULT, listId],
    ))!;
    return { accountId: row.account_id, reserved: row.reserved, used: Number(row.used) };
  }

  /**
   * Stores one address's result only while its list is still verifying: a result that arrives
   * after pause or cancel stays queued (checked again on resume, never charged after cancel).
   * FOR SHARE orders this write against the list's status change, so cancel's credit settlement
   * sees every stored result.
   */
  async storeListResult(rowId: string, listId: string, c: CheckColumns): Promise<void> {
    await sqlCount(
      this.em,
      `update email_verifications set status = $1, result = $2, error = $3, suggestion = $4, mx = $5, verified_at = now(), updated_at = now()
        where id = $6 and status = $7
          and exists (select 1 from email_verification_lists l where l.id = $8 and l.status = $9 for share)`,
      [c.status, c.result, c.error, c.suggestion, c.mx, rowId, QUEUED_CHECK, listId, VERIFYING],
    );
  }

  /** When the list's last stored address was created (its order is created_at), null when it has none. */
  async lastAddressAt(listId: string): Promise<Date | null> {
    const row = await sqlRow<{ at: Date | null }>(
      this.em,
      'select max(created_at) as at from email_verifications where list_id = $1 and kind = $2',
      [listId, LIST_ADDRESS],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Whether every address of the list ended `failed` (and it has at least one). */
  async allFailed(listId: string): Promise<boolean> {
    const row = (await sqlRow<{ n: string; failed: string }>(
      this.em,
      'select count(*) as n, count(*) filter (where result = $1) as failed from email_verifications where list_id = $2 and kind = $3',
      [FAILED_RESULT, listId, LIST_ADDRESS],
    ))!;
    return Number(row.n) > 0 && row.n === row.failed;
  }

  /** The account's credits now, read past the identity map (another request may just have spent some). */
  async creditBalance(accountId: string): Promise<number> {
    const account = await this.em.findOne(Account, { id: accountId }, { fields: ['verification_credits'], disableIdentityMap: true });
    return account?.verification_credits ?? 0;
  }

  /** Takes `n` credits in one conditional UPDATE: false, and nothing taken, when the account holds fewer. */
  async takeCredits(accountId: string, n: number): Promise<boolean> {
    const taken = await sqlCount(
      this.em,
      'update accounts set verification_credits = verification_credits - $2 where id = $1 and verification_credits >= $2',
      [accountId, n],
    );
    return taken > 0;
  }

  async addCredits(accountId: string, n: number): Promise<void> {
    await sqlCount(this.em, 'update accounts set verification_credits = verification_credits + $2 where id = $1', [accountId, n]);
  }
}
