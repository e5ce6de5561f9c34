import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlCount, sqlRows, textArray, textColumns } from '../../db/sql.js';
import { newId } from '../../lib/ids.js';
import { WEBHOOK_KIND } from '../webhooks/webhook.entity.js';

/** The type of an inbound message's webhook deliveries (and of its body). */
export const INBOUND_WEBHOOK_EVENT = 'inbound.message';

/** Hours between two confirmation mails to one address of one account. */
export const REMIND_AFTER_HOURS = 1;

/** The inbound routes' SQL: who owns an inbound domain, and which forward addresses are allowed. */
export class InboundRepository {
  constructor(private readonly em: EntityManager) {}

  /** The verified domains among `names`, with their accounts (any account: routing decides between them). */
  verifiedDomains(names: string[]): Promise<{ name: string; account_id: string }[]> {
    return sqlRows<{ name: string; account_id: string }>(
      this.em,
      'select name, account_id from domains where is_verified and name = any($1::text[])',
      [textArray(names)],
    );
  }

  /** The account's verified domains among `names`. */
  async verifiedNamesOf(accountId: string, names: string[]): Promise<Set<string>> {
    if (!names.length) return new Set();
    const rows = await sqlRows<{ name: string }>(
      this.em,
      'select name from domains where account_id = $1 and is_verified and name = any($2::text[])',
      [accountId, textArray(names)],
    );
    return new Set(rows.map((d) => d.name));
  }

  /** The addresses (lower case) whose owner opened the account's confirmation link. */
  async confirmedOf(accountId: string, emails: string[]): Promise<Set<string>> {
    const rows = await sqlRows<{ email: string }>(
      this.em,
      `select email from inbound_forward_destinations
        where account_id = $1 and confirmed_at is not null and email = any($2::text[])`,
      [accountId, textArray(emails)],
    );
    return new Set(rows.map((c) => c.email));
  }

  /**
   * Makes sure each webhook forward has its `webhooks` row (kind inbound, the forward's id, URL
   * and sealed secret), through which the webhook engine retries and logs its deliveries.
   */
  async ensureTargets(accountId: string, routeName: string, forwards: { id: string; url: string; secret_enc: string }[]): Promise<void> {
    if (!forwards.length) return;
    await sqlCount(
      this.em,
      `insert into webhooks (id, created_at, updated_at, account_id, kind, domain_id, sms_number_id, name, url, events, enabled, editable, secret_enc)
       select f.id, now(), now(), $4, $5, null, null, $6, f.url, $7::text[], true, false, f.secret_enc
         from unnest($1::text[], $2::text[], $3::text[]) as f(id, url, secret_enc)
       on conflict (id) do nothing`,
      [
        ...textColumns(forwards, ['id', 'url', 'secret_enc']),
        accountId,
        WEBHOOK_KIND.inbound,
        routeName.slice(0, 191),
        textArray([INBOUND_WEBHOOK_EVENT]),
      ],
    );
  }

  /** Drops the delivery targets of webhook forwards a route no longer has (their pending retries with them). */
  async dropTargets(accountId: string, forwardIds: string[]): Promise<void> {
    if (!forwardIds.length) return;
    await sqlCount(this.em, 'delete from webhooks where account_id = $1 and kind = $2 and id = any($3::text[])', [
      accountId,
      WEBHOOK_KIND.inbound,
      textArray(forwardIds),
    ]);
  }

  /**
   * Records the addresses (lower case, not empty) still to confirm and returns those to mail now:
   * new ones, and those whose last mail is older than REMIND_AFTER_HOURS. One statement, so two
   * saves at once mail once.
   */
  dueForMail(accountId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    return sqlRows<{ id: string; email: string }>(
      this.em,
      `insert into inbound_forward_destinations as d (id, created_at, updated_at, account_id, email, mailed_at)
       select x.id, now(), now(), $3, x.email, now() from unnest($1::text[], $2::text[]) as x(id, email)
       on conflict (account_id, email) do update set mailed_at = now(), updated_at = now()
         where d.confirmed_at is null and (d.mailed_at is null or d.mailed_at < now() - make_interval(hours => $4))
       returning d.id, d.email`,
      [textArray(emails.map(() => newId())), textArray(emails), accountId, REMIND_AFTER_HOURS],
    );
  }
}
