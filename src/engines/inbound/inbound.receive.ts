import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParsedMail } from 'mailparser';
import type { AppServices } from '../../core/services.js';
import { DomainEvent } from '../../modules/events/domain-event.entity.js';
import { checkAttachments, MAX_INBOUND_ATTACHMENT_BYTES, type AttachmentVerdict } from './inbound.attachments.js';
import { INBOUND_MESSAGE, Inbound, InboundMessage, type InboundMessageStatus } from '../../modules/inbound/inbound.entity.js';
import { InboundRepository } from '../../modules/inbound/inbound.repository.js';
import { forwardAll, queueWebhooks, type ForwardOutcome } from './inbound.forward.js';
import { authenticateInbound, type AuthResults, type SmtpClient } from './inbound.auth.js';
import { catches, domainOf, headerMap, hostAndParents, isAtOrUnder, matches, type MatchSubject, type StoredFilter } from '../../modules/inbound/inbound.match.js';
import { parseInbound } from './inbound.parse.js';

export interface InboundMail {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The SMTP client, for SPF: its address and HELO name. */
  client?: SmtpClient;
}

export interface InboundResult {
  accepted: boolean;
  code: number;
  message: string;
}

const normal = (address: string) => address.trim().toLowerCase();

/**
 * Which account an inbound domain belongs to: the holder of the most specific verified domain it
 * is, or is under. Domain creation keeps another account from holding a parent or a child of a
 * domain (domain.service.ts), and a domain is verified through its own DNS, so this is the
 * account that controls the name; data from before that rule cannot make mail cross accounts.
 */
async function ownersOf(em: EntityManager, hosts: string[]): Promise<Map<string, string>> {
  const names = [...new Set(hosts.flatMap(hostAndParents))];
  const owners = new Map<string, string>();
  if (!names.length) return owners;
  const rows = await new InboundRepository(em).verifiedDomains(names);
  const holder = new Map(rows.map((r) => [r.name, r.account_id]));
  for (const host of hosts) {
    const owner = hostAndParents(host).find((n) => holder.has(n));
    if (owner) owners.set(host, holder.get(owner)!);
  }
  return owners;
}

/** Enabled routes that could take mail, and those of them that may take it by inbound domain. */
interface Candidates {
  routes: Inbound[];
  byDomain: Set<Inbound>;
  /** Names of the domains whose routes would have been reachable but have inbound routing off. */
  off: Set<string>;
}

/**
 * A recipient refused at RCPT TO because its route's domain has `inbound_routing_enabled` off:
 * a 550 that says why, so the sender knows the mail was not taken (smtp/server.ts passes on any
 * error that carries a responseCode).
 */
export class InboundRoutingOff extends Error {
  readonly responseCode = 550;
  constructor(domains: Iterable<string>) {
    super(`5.7.1 Inbound routing is turned off for ${[...domains].join(', ')}`);
  }
}

/**
 * Enabled routes that could take mail for these recipients: by their own address (unique, so of
 * one account), or by inbound domain: only routes of the account that owns that domain, whose
 * inbound domain is under their own domain. A route found by its address is not thereby allowed
 * to take the message's other recipients by domain.
 */
async function candidates(em: EntityManager, rcpts: string[]): Promise<Candidates> {
  const owners = await ownersOf(em, [...new Set(rcpts.map(domainOf).filter(Boolean))]);
  const pairs = [...owners].map(([host, account]) => ({ domain_enabled: true, inbound_domain: host, account }));
  const routes = await em.find(
    Inbound,
    { enabled: true, $or: [{ address: { $in: rcpts } }, ...pairs] },
    { populate: ['domain'], orderBy: { inbound_priority: 'desc', created_at: 'asc', id: 'asc' } },
  );
  const byDomain = new Set(
    routes.filter(
      (r) =>
        r.domain_enabled &&
        r.inbound_domain !== null &&
        owners.get(r.inbound_domain) === r.account.id &&
        isAtOrUnder(r.inbound_domain, r.domain.name),
    ),
  );
  const reachable = routes.filter((r) => byDomain.has(r) || rcpts.includes(r.address));
  // A domain's inbound_routing_enabled switches all its routes: off, they keep their settings and
  // take no mail, by their own address or by inbound domain.
  const on = (r: Inbound) => r.domain.settings.inbound_routing_enabled;
  return { routes: reachable.filter(on), byDomain, off: new Set(reachable.filter((r) => !on(r)).map((r) => r.domain.name)) };
}

/**
 * For the RCPT TO stage: may this address receive mail (is some enabled route reachable through
 * it)? Throws InboundRoutingOff when the only routes it reaches are on domains with inbound
 * routing off.
 */
export async function hasInboundRoute(services: AppServices, address: string): Promise<boolean> {
  const rcpt = normal(address);
  const found = await candidates(services.orm.em.fork(), [rcpt]);
  if (!found.routes.length && found.off.size) throw new InboundRoutingOff(found.off);
  return found.routes.length > 0;
}

/**
 * Which route takes each recipient: the first by priority whose address it is, or whose inbound
 * domain it is at and whose catch filter takes it, and whose match filter takes the message.
 * The route's own address skips the catch filter: it names the route exactly.
 */
function route({ routes, byDomain }: Candidates, rcpts: string[], subject: MatchSubject): Map<Inbound, string[]> {
  const taken = new Map<Inbound, string[]>();
  for (const rcpt of rcpts) {
    const r = routes.find(
      (x) =>
        (x.address === rcpt ||
          (byDomain.has(x) && x.inbound_domain === domainOf(rcpt) && catches(x.catch_filter as StoredFilter, rcpt))) &&
        matches(x.match_filter as StoredFilter, subject),
    );
    if (r) taken.set(r, [...(taken.get(r) ?? []), rcpt]);
  }
  return taken;
}

function eventOf(m: InboundMessage, type: string, extra: Record<string, unknown> = {}) {
  return {
    account_id: m.account_id,
    domain_id: m.domain_id,
    type,
    payload: { domain_id: m.domain_id, inbound_id: m.inbound_id, inbound_message_id: m.id, ...extra },
  };
}

function newMessage(r: Inbound, mail: InboundMail, rcpts: string[], parsed: ParsedMail, status: InboundMessageStatus, reason: string | null) {
  return Object.assign(new InboundMessage(), {
    inbound_id: r.id,
    account_id: r.account.id,
    domain_id: r.domain.id,
    mail_from: mail.mailFrom.slice(0, 320),
    rcpt_to: rcpts,
    subject: parsed.subject ?? null,
    size: mail.raw.length,
    status,
    reason,
  });
}

async function reject(services: AppServices, taken: Map<Inbound, string[]>, mail: InboundMail, parsed: ParsedMail, v: Exclude<AttachmentVerdict, { ok: true }>) {
  const extra = v.reason === 'unsupported_attachment_type' ? { reason: v.reason, unsupported_attachment_types: v.types } : { reason: v.reason };
  await services.orm.em.fork().transactional(async (tx) => {
    for (const [r, rcpts] of taken) {
      const m = newMessage(r, mail, rcpts, parsed, INBOUND_MESSAGE.rejected, v.reason);
      tx.persist(m);
      tx.create(DomainEvent, eventOf(m, 'inbound_message.rejected', extra));
    }
  });
  if (v.reason === 'unsupported_attachment_type') return { accepted: false, code: 550, message: `5.6.1 Unsupported attachment type: ${v.types.join(', ')}` };
  const mb = Math.round(MAX_INBOUND_ATTACHMENT_BYTES / (1024 * 1024));
  return { accepted: false, code: 552, message: `5.3.4 An attachment exceeds the maximum size of ${mb} MB` };
}

/** What went wrong or was skipped, per forward; null when every copy went out. */
function failureReason(outcomes: ForwardOutcome[]): string | null {
  const problems = outcomes.filter((o) => !o.ok);
  if (!problems.length) return null;
  return problems
    .map((o) => `${o.forward.type} ${o.forward.value}: ${o.error}`)
    .join('; ')
    .slice(0, 500);
}

/**
 * One route's copy: recorded as received first, with its webhook deliveries, so a crash
 * mid-forward still leaves a trace and the engine still sends the webhooks.
 */
async function deliver(services: AppServices, r: Inbound, rcpts: string[], mail: InboundMail, parsed: ParsedMail, auth: AuthResults | null): Promise<string> {
  const em = services.orm.em.fork();
  const m = newMessage(r, mail, rcpts, parsed, INBOUND_MESSAGE.received, null);
  const received = { id: m.id, route: r, mailFrom: mail.mailFrom, rcptTo: rcpts, raw: mail.raw, parsed, receivedAt: m.created_at, auth };
  const hooks = await em.transactional(async (tx) => {
    tx.persist(m);
    await tx.flush();
    return queueWebhooks(tx, services, received, new Date());
  });
  const outcomes = await forwardAll(services, received, hooks);
  // A suppressed address skipped is no failure (as a suppressed recipient of a send), but is noted.
  const failed = outcomes.some((o) => !o.ok && !o.skipped);
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(InboundMessage, { id: m.id }, { status: failed ? INBOUND_MESSAGE.failed : INBOUND_MESSAGE.forwarded, reason: failureReason(outcomes) });
    if (failed) tx.create(DomainEvent, eventOf(m, 'inbound_forward.failed'));
  });
  return m.id;
}

/**
 * Mail arriving for inbound routes (the SMTP listener's non-relay recipients). The message is
 * parsed off the event loop within INBOUND_MAX_* (inbound.parse.ts; past them it is refused and
 * nothing is recorded), routes are matched, the message is refused when an attachment is of an
 * unsupported type or too big (`inbound_message.rejected`), else forwarded to every destination of each route before the
 * answer: a 250 means each forward was attempted. A failed forward is not retried; it is
 * recorded (status failed, `inbound_forward.failed`), and the sender still gets its 250,
 * since the message was received.
 */
export async function receiveInbound(services: AppServices, mail: InboundMail): Promise<InboundResult> {
  const rcpts = [...new Set(mail.rcptTo.map(normal))];
  const found = rcpts.length ? await candidates(services.orm.em.fork(), rcpts) : { routes: [], byDomain: new Set<Inbound>(), off: new Set<string>() };
  const noRoute = { accepted: false, code: 550, message: `5.1.1 No inbound route for ${rcpts.join(', ') || 'the recipients'}` };
  // Turned off between RCPT TO and DATA: refused the same way as at RCPT TO.
  if (!found.routes.length && found.off.size) return { accepted: false, code: 550, message: new InboundRoutingOff(found.off).message };
  if (!found.routes.length) return noRoute;
  const read = await parseInbound(services.config, mail.raw);
  if ('refusal' in read) return { accepted: false, ...read.refusal };
  const parsed = read.mail;
  const taken = route(found, rcpts, { sender: normal(mail.mailFrom), headers: headerMap(parsed.headerLines) });
  if (!taken.size) return noRoute;
  const verdict = checkAttachments(parsed.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })));
  if (!verdict.ok) return reject(services, taken, mail, parsed, verdict);
  // Checked once per message, and only when a webhook will carry the verdicts.
  const needsAuth = [...taken.keys()].some((r) => r.forwards.some((f) => f.type === 'webhook'));
  const { dns, config } = services;
  const auth = needsAuth ? await authenticateInbound(dns, mail.raw, mail.mailFrom, mail.client ?? {}, config.INBOUND_MX_HOST) : null;
  const ids = await Promise.all([...taken].map(([r, list]) => deliver(services, r, list, mail, parsed, auth)));
  return { accepted: true, code: 250, message: `2.0.0 Message received as ${ids.join(', ')}` };
}
