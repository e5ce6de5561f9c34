import type { AddressObject, ParsedMail } from 'mailparser';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sortableId } from '../../lib/ids.js';
import type { AppServices } from '../../core/services.js';
import { attempt, leaseMs } from '../webhooks/webhook.delivery.js';
import { recordRound } from '../webhooks/round.record.js';
import { WebhookRepository, type Claimed } from '../../modules/webhooks/webhook.repository.js';
import type { AuthResults } from './inbound.auth.js';
import { INBOUND_WEBHOOK_EVENT, InboundRepository } from '../../modules/inbound/inbound.repository.js';
import type { Domain } from '../../modules/domains/domain.entity.js';
import { QuotaService } from '../../modules/quota/quota.service.js';
import { reasonsFor, type SuppressionReason } from '../../modules/suppressions/suppression.matcher.js';
import { confirmationsOf, type Confirmation } from '../../modules/inbound/inbound.destination.js';
import type { Inbound, InboundForward } from '../../modules/inbound/inbound.entity.js';
import { isoTimestamp } from '../../lib/timestamps.js';

/** One received message on its way to one route's forwards. */
export interface Received {
  /** The InboundMessage id. */
  id: string;
  route: Inbound;
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  parsed: ParsedMail;
  receivedAt: Date;
  /** SPF, DKIM and DMARC as checked at receipt; null when the route has no webhook forward. */
  auth: AuthResults | null;
}

export const INBOUND_WEBHOOK_TYPE = INBOUND_WEBHOOK_EVENT;

type Address = { email: string; name: string };

function addresses(field: AddressObject | AddressObject[] | undefined): Address[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((o) => o.value).flatMap((a) => (a.group ? a.group : [a])).map((a) => ({ email: a.address ?? '', name: a.name ?? '' }));
}

function headerList(parsed: ParsedMail): { name: string; value: string }[] {
  return parsed.headerLines.map(({ line }) => {
    const colon = line.indexOf(':');
    return {
      name: colon < 0 ? line : line.slice(0, colon),
      value: (colon < 0 ? '' : line.slice(colon + 1)).replace(/\r?\n[ \t]+/g, ' ').trim(),
    };
  });
}

/**
 * What a webhook forward receives: the message parsed, plus the original bytes (base64) for
 * receivers that check DKIM or want a part we do not break out. Headers are a list in their
 * original order, since names repeat (Received) and order carries meaning.
 */
export function inboundWebhookBody(m: Received, at: Date): string {
  const p = m.parsed;
  const from = addresses(p.from)[0] ?? null;
  return JSON.stringify({
    type: INBOUND_WEBHOOK_TYPE,
    created_at: isoTimestamp(at),
    data: {
      id: m.id,
      inbound_id: m.route.id,
      domain_id: m.route.domain.id,
      mail_from: m.mailFrom,
      rcpt_to: m.rcptTo,
      from,
      to: addresses(p.to),
      cc: addresses(p.cc),
      reply_to: addresses(p.replyTo),
      subject: p.subject ?? null,
      text: p.text ?? null,
      html: typeof p.html === 'string' ? p.html : null,
      headers: headerList(p),
      attachments: p.attachments.map((a) => ({
        filename: a.filename ?? null,
        content_type: a.contentType,
        size: a.content.length,
        disposition: a.contentDisposition ?? null,
        content_id: a.cid ?? null,
        content: a.content.toString('base64'),
      })),
      raw: m.raw.toString('base64'),
      received_at: isoTimestamp(m.receivedAt),
      auth: m.auth,
    },
  });
}

export interface ForwardOutcome {
  forward: InboundForward;
  ok: boolean;
  error: string | null;
  /** Not attempted on purpose (a suppressed address): not a failure, but recorded as the reason. */
  skipped?: boolean;
}

/**
 * What email forwards of one received message may do, read once for all of them: which
 * addresses are confirmed (inbound.destination.ts has the why) and which are suppressed.
 */
interface EmailRules {
  returnPath: string;
  confirmations: Map<string, Confirmation>;
  suppressed: Map<string, SuppressionReason>;
}

/**
 * The envelope sender of forwarded copies: the service's return path on the route's own, verified
 * domain (as for sends), never the original sender, whose domain we may not speak for.
 */
const returnPathOf = (d: Domain) => `bounces@${d.settings.return_path_subdomain}.${d.name}`;

async function emailRules(services: AppServices, m: Received, emails: string[]): Promise<EmailRules> {
  const em = services.orm.em.fork();
  const { account, domain } = m.route;
  return {
    returnPath: returnPathOf(domain),
    confirmations: await confirmationsOf(em, account.id, emails),
    suppressed: await reasonsFor(em, account.id, domain.id, emails),
  };
}

const fail = (forward: InboundForward, error: string): ForwardOutcome => ({ forward, ok: false, error });

async function toEmail(services: AppServices, f: InboundForward, m: Received, rules: EmailRules): Promise<ForwardOutcome> {
  if (!m.route.domain.is_verified) return fail(f, `not forwarded: the domain ${m.route.domain.name} is not verified`);
  if (rules.confirmations.get(f.value.toLowerCase()) === 'pending') {
    return fail(f, 'not forwarded: the address has not confirmed it accepts forwards (open the link mailed to it when the route was saved)');
  }
  const suppressed = rules.suppressed.get(f.value);
  if (suppressed) return { forward: f, ok: false, error: `skipped: suppressed (${suppressed})`, skipped: true };
  // Each copy counts like a send against the account's daily quota.
  if (!(await new QuotaService(services.orm.em.fork(), services.config).chargeDay(m.route.account.id, 1))) {
    return fail(f, 'not forwarded: the daily API quota is used up');
  }
  try {
    // The original bytes, unchanged: the receiver sees the message as it was sent (and its DKIM still verifies).
    await services.mail.sendRaw({
      envelope: { from: rules.returnPath, to: [f.value] },
      raw: m.raw,
      meta: {
        email_id: m.id,
        to: f.value,
        from: m.mailFrom,
        subject: m.parsed.subject ?? '',
        text: m.parsed.text ?? '',
        html: typeof m.parsed.html === 'string' ? m.parsed.html : null,
      },
    });
    return { forward: f, ok: true, error: null };
  } catch (err) {
    return fail(f, (err as Error).message || String(err));
  }
}

/**
 * Queues the route's webhook forwards in the caller's transaction (the one storing the message):
 * each gets its delivery target and a pending delivery, leased for the first attempt this
 * process makes at once. The webhook engine retries a failed one, and makes the first attempt
 * itself if this process dies before it; every attempt is in the webhook log.
 */
export async function queueWebhooks(tx: EntityManager, services: AppServices, m: Received, at: Date): Promise<Map<string, Claimed>> {
  const hooks = m.route.forwards.filter((f) => f.type === 'webhook' && f.secret_enc);
  const claimed = new Map<string, Claimed>();
  if (!hooks.length) return claimed;
  const repo = new InboundRepository(tx);
  const accountId = m.route.account.id;
  await repo.ensureTargets(accountId, m.route.name, hooks.map((f) => ({ id: f.id, url: f.value, secret_enc: f.secret_enc! })));
  const body = inboundWebhookBody(m, at);
  for (const f of hooks) {
    const d = { id: `msg_${sortableId(24)}`, webhook_id: f.id, type: INBOUND_WEBHOOK_EVENT, body, url: f.value, secret_enc: f.secret_enc!, account_id: accountId, domain_id: null };
    claimed.set(f.id, d);
  }
  const { WEBHOOK_TIMEOUT_MS } = services.config;
  const lease = new Date(Date.now() + leaseMs(WEBHOOK_TIMEOUT_MS, 1, hooks.length));
  const rows = [...claimed.values()].map((d) => ({ id: d.id, webhook_id: d.webhook_id, event_id: m.id, type: d.type, body: d.body }));
  await new WebhookRepository(tx).insertDeliveries(rows, new Date().toISOString(), lease.toISOString());
  return claimed;
}

/** The first attempt of a queued webhook forward, recorded like the engine's (log, retry schedule). */
async function toWebhook(services: AppServices, f: InboundForward, d: Claimed | undefined): Promise<ForwardOutcome> {
  if (!d) return fail(f, 'not forwarded: the forward has no signing secret');
  const outcome = await attempt(services, d);
  await recordRound(services, [outcome]);
  const result = outcome.result;
  return { forward: f, ok: result.ok, error: result.ok ? null : result.error ?? `HTTP ${result.status}` };
}

/** Every forward of the route, at once; one failing does not stop the others. */
export async function forwardAll(services: AppServices, m: Received, hooks: Map<string, Claimed>): Promise<ForwardOutcome[]> {
  const emails = m.route.forwards.filter((f) => f.type === 'email').map((f) => f.value);
  const rules = emails.length ? await emailRules(services, m, emails) : null;
  return Promise.all(m.route.forwards.map((f) => (f.type === 'webhook' ? toWebhook(services, f, hooks.get(f.id)) : toEmail(services, f, m, rules!))));
}
