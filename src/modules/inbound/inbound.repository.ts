import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import { WEBHOOK_KIND } from '../webhooks/webhook.entity.js';

/** The type of an inbound message's webhook deliveries (and of its body). */
export const INBOUND_WEBHOOK_EVENT = 'inbound.message';

/** Hours between two confirmation mails to one address of one account. */
export const REMIND_AFTER_HOURS = 1;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The inbound routes' SQL: who owns an inbound domain, and which forward addresses are allowed. */
export class InboundRepository {
  constructor(private readonly em: EntityManager) {}

  /** The verified domains among `names`, with their accounts (any account: routing decides between them). */
  verifiedDomains(names: string[]): Promise<{ name: string; account_id: string }[]> {
    return this.em.execute<{ name: string; account_id: string }[]>(
      `select name, account_id from domains where is_verified and name in (${placeholders(names.length)})`,
      names,
    );
  }

  /** The account's verified domains among `names`. */
  async verifiedNamesOf(accountId: string, names: string[]): Promise<Set<string>> {
    if (!names.length) return new Set();
    const rows = await this.em.execute<{ name: string }[]>(
      `select name from domains where account_id = ? and is_verified and name in (${placeholders(names.length)})`,
      [accountId, ...names],
    );
    return new Set(rows.map((d) => d.name));
  }

  /** The addresses (lower case) whose owner opened the account's confirmation link. */
  async confirmedOf(accountId: string, emails: string[]): Promise<Set<string>> {
    const rows = await this.em.execute<{ email: string }[]>(
      `select email from inbound_forward_destinations
        where account_id = ? and confirmed_at is not null and email in (${placeholders(emails.length)})`,
      [accountId, ...emails],
    );
    return new Set(rows.map((c) => c.email));
  }

  /**
   * Makes sure each webhook forward has its `webhooks` row (kind inbound, the forward's id, URL
   * and sealed secret), through which the webhook engine retries and logs its deliveries.
   */
  async ensureTargets(accountId: string, routeName: string, forwards: { id: string; url: string; secret_enc: string }[]): Promise<void> {
    if (!forwards.length) return;
    const values = forwards.map(() => '(?, now(), now(), ?, ?, null, null, ?, ?, ?::text[], true, false, ?)').join(', ');
    await this.em.execute(
      `insert into webhooks (id, created_at, updated_at, account_id, kind, domain_id, sms_number_id, name, url, events, enabled, editable, secret_enc)
       values ${values}
       on conflict (id) do nothing`,
      forwards.flatMap((f) => [f.id, accountId, WEBHOOK_KIND.inbound, routeName.slice(0, 191), f.url, `{${INBOUND_WEBHOOK_EVENT}}`, f.secret_enc]),
    );
  }

  /** Drops the delivery targets of webhook forwards a route no longer has (their pending retries with them). */
  async dropTargets(accountId: string, forwardIds: string[]): Promise<void> {
    if (!forwardIds.length) return;
    await this.em.execute(
      `delete from webhooks where account_id = ? and kind = ? and id in (${placeholders(forwardIds.length)})`,
      [accountId, WEBHOOK_KIND.inbound, ...forwardIds],
    );
  }

  /**
   * Records the addresses (lower case, not empty) still to confirm and returns those to mail now:
   * new ones, and those whose last mail is older than REMIND_AFTER_HOURS. One statement, so two
   * saves at once mail once.
   */
  dueForMail(accountId: string, emails: string[]): Promise<{ id: string; email: string }[]> {
    const values = emails.map(() => '(?, now(), now(), ?, ?, now())').join(', ');
    return this.em.execute<{ id: string; email: string }[]>(
      `insert into inbound_forward_destinations as d (id, created_at, updated_at, account_id, email, mailed_at)
       values ${values}
       on conflict (account_id, email) do update set mailed_at = now(), updated_at = now()
         where d.confirmed_at is null and (d.mailed_at is null or d.mailed_at < now() - make_interval(hours => ?))
       returning d.id, d.email`,
      [...emails.flatMap((email) => [newId(), accountId, email]), REMIND_AFTER_HOURS],
    );
  }
}
