import type { EntityManager } from '@mikro-orm/postgresql';
import { toRecipient } from '../recipients/recipient.type.js';
import { asDate, asDateOrNull } from '../../db/sql.js';
import type { ActivityType } from './activity.entity.js';
import { ActivityRepository, type ActivityRow } from './activity.repository.js';
import { ownedDomainId } from '../../db/scoped.js';
import { parseMoment } from '../../lib/moment.js';
import type { ActivityListArgs } from './activity.inputs.js';
import type { ActivityEntry, ActivityPage } from './activity.type.js';
import { DIAGNOSED, diagnosisOf } from './diagnosis.type.js';
import { assertDomainAccess, domainsOf, mayReach, type Actor } from '../../core/actor.js';
import { errors, label, FieldErrorBag } from '../../core/errors.js';
import { offsetOf } from '../../core/page.js';

/** Types a free account neither sees nor filters by (SPEC.md "Activity"). */
const PAID_TYPES = ['deferred', 'suppressed'] as const satisfies readonly ActivityType[];
const PAID_ONLY = 'The selected event is available on the Starter plan or above.';
const isPaid = (type: string) => (PAID_TYPES as readonly string[]).includes(type);
/** Types whose entries say the TLS policy of the delivery. */
const DELIVERED = new Set(['sent', 'delivered']);

function toEntry(r: ActivityRow): ActivityEntry {
  return {
    id: r.id,
    created_at: asDate(r.created_at),
    updated_at: asDate(r.updated_at),
    type: r.type,
    suppression_reason: r.type === 'suppressed' ? r.suppression_reason : null,
    diagnosis: diagnosisOf(r.type, r.smtp_response),
    tls_policy: DELIVERED.has(r.type) ? (r.tls_policy ?? null) : null,
    email: {
      id: r.e_id,
      from: r.from_email,
      subject: r.subject,
      text: r.text ?? null,
      html: r.html ?? null,
      status: r.status,
      tags: r.tags?.length ? r.tags : null,
      created_at: asDate(r.e_created_at),
      updated_at: asDate(r.e_updated_at),
      recipient: toRecipient({
        id: r.r_id,
        email: r.r_email,
        created_at: asDate(r.r_created_at),
        updated_at: asDate(r.r_updated_at),
        deleted_at: asDateOrNull(r.r_deleted_at),
      }),
    },
  };
}

/** The activity log, read by domain and time range through the (domain_id, created_at) index. */
export class ActivityService {
  private readonly repo: ActivityRepository;

  constructor(private readonly em: EntityManager) {
    this.repo = new ActivityRepository(em);
  }

  /**
   * `fresh` reads the plan from the database; otherwise the caller's own (a token's, kept at most
   * a few seconds and forgotten at once when the plan changes) spares the round trip. A live
   * stream's caller was read when it connected, so its reads ask for fresh.
   */
  private async isFree(auth: Actor, fresh = false): Promise<boolean> {
    const plan = !fresh && auth.plan ? auth.plan : await this.repo.planOf(auth.accountId);
    return !plan || plan === 'free';
  }

  async list(auth: Actor, args: ActivityListArgs): Promise<ActivityPage> {
    const bag = new FieldErrorBag();
    const from = parseMoment(args.date_from)?.at;
    const to = parseMoment(args.date_to)?.at;
    const format = (f: string) => `The ${label(f)} must be a Unix timestamp or a date in the format YYYY-MM-DD HH:MM:SS.`;
    if (!from) bag.add('date_from', format('date_from'));
    if (!to) bag.add('date_to', format('date_to'));
    if (from && to && from.getTime() >= to.getTime()) {
      bag.add('date_from', 'The date from must be a date before date to.');
      bag.add('date_to', 'The date to must be a date after date from.');
    }
    const free = await this.isFree(auth);
    const events = [...new Set(args.event ?? [])];
    if (free) (args.event ?? []).forEach((e, i) => isPaid(e) && bag.add(`event.${i}`, PAID_ONLY));
    bag.throwIfAny();
    // A caller limited to other domains is answered as ownedDomainId answers it (404 for a domain
    // not the account's, then 403), before anything is read.
    if (!mayReach(auth, args.domain_id)) await ownedDomainId(this.em, auth, args.domain_id);

    // date_to is inclusive to the second it names. The domain's ownership is checked by the page's own statement.
    const rows = await this.repo.domainPage(
      { accountId: auth.accountId, domainId: args.domain_id, from: from!, before: new Date(to!.getTime() + 1000), types: events, hidden: free ? PAID_TYPES : [] },
      { limit: args.limit, offset: offsetOf(args) },
    );
    if (!rows) throw errors.notFound();
    await this.withResponses(rows);
    const first = rows.length ? offsetOf(args) + 1 : null;
    return {
      data: rows.map(toEntry),
      meta: { current_page: args.page, from: first, per_page: args.limit, to: first === null ? null : first + rows.length - 1 },
    };
  }

  /**
   * The receivers' answers of the page's bounces and deferrals, and the TLS policy of its
   * deliveries, which the page's statement leaves out (one read by key, only when there are some).
   */
  private async withResponses(rows: ActivityRow[]): Promise<void> {
    const ids = rows.filter((r) => DIAGNOSED.has(r.type) || DELIVERED.has(r.type)).map((r) => r.id);
    if (!ids.length) return;
    const responses = await this.repo.responsesOf(ids);
    for (const r of rows) {
      const found = responses.get(r.id);
      if (found) Object.assign(r, found);
    }
  }

  /** The given activities of the caller's account, oldest first, as the list would show them (plan rules included). */
  async byIds(auth: Actor, ids: string[]): Promise<ActivityEntry[]> {
    if (!ids.length) return [];
    const hidden = (await this.isFree(auth, true)) ? PAID_TYPES : [];
    const rows = await this.repo.inOrder({ accountId: auth.accountId, ids, domainIds: domainsOf(auth), hidden });
    return rows.map(toEntry);
  }

  async get(auth: Actor, activityId: string): Promise<ActivityEntry> {
    const row = await this.repo.get(activityId, auth.accountId);
    if (!row || (isPaid(row.type) && (await this.isFree(auth)))) throw errors.notFound();
    assertDomainAccess(auth, row.domain_id);
    return toEntry(row);
  }
}
