import type { AddressObject, ParsedMail } from 'mailparser';
import { newId } from '../../lib/ids.js';
import { decrypt } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { postWebhook } from '../webhooks/http.js';
import { signatureHeaders } from '../webhooks/sign.js';
import type { Domain } from '../domains/domain.entity.js';
import { QuotaService } from '../quota/quota.service.js';
import { reasonsFor, type SuppressionReason } from '../suppressions/suppression.matcher.js';
import { confirmationsOf, type Confirmation } from './inbound.destination.js';
import type { Inbound, InboundForward } from './inbound.entity.js';
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
}

export const INBOUND_WEBHOOK_TYPE = 'inbound.message';

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

async function toWebhook(services: AppServices, f: InboundForward, m: Received): Promise<ForwardOutcome> {
  const { config, dns } = services;
  const at = new Date();
  const body = inboundWebhookBody(m, at);
  const secret = decrypt(config.APP_SECRET, f.secret_enc!);
  const result = await postWebhook({
    url: f.value,
    body,
    headers: signatureHeaders(secret, body, `msg_${newId(24)}`, at),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    dns,
  });
  return { forward: f, ok: result.ok, error: result.ok ? null : result.error ?? `HTTP ${result.status}` };
}

/** Every forward of the route, at once; one failing does not stop the others. */
export async function forwardAll(services: AppServices, m: Received): Promise<ForwardOutcome[]> {
  const emails = m.route.forwards.filter((f) => f.type === 'email').map((f) => f.value);
  const rules = emails.length ? await emailRules(services, m, emails) : null;
  return Promise.all(m.route.forwards.map((f) => (f.type === 'webhook' ? toWebhook(services, f, m) : toEmail(services, f, m, rules!))));
}
