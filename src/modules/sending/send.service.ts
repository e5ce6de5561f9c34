import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../core/services.js';
import { outboxRows } from '../../jobs/outbox.js';
import { afterCommit } from '../../lib/pubsub.js';
import { sendAcceptSeconds, sendsAccepted } from '../../lib/metrics.js';
import type { TxEventHandler } from '../../core/events.js';
import { Template } from '../templates/template.entity.js';
import { TemplateTranslation } from '../templates/template-translation.entity.js';
import { visibleTo } from '../../db/scoped.js';
import { reasonsFrom, type SuppressionReason } from '../suppressions/suppression.matcher.js';
import { matchInput } from '../suppressions/suppression.repository.js';
import { activityNotices } from '../activity/activity.notice.js';
import type { Address } from '../messages/message.entity.js';
import { environmentRetention } from '../../config/plans.js';
import type { SendEmailArgs } from './send.inputs.js';
import { checkSend, type CheckedSend } from './send.validate.js';
import { IdempotencyRepository, type IdempotencyClaim } from './idempotency.repository.js';
import { acceptBatcher } from './accept.batch.js';
import { AcceptRepository, type AcceptRows } from './accept.repository.js';
import { acceptRows, personalizationOf, recipientsOf, type AcceptPlan } from './accept.rows.js';
import { renderAtAccept, type RenderPart } from './render.js';
import { senderCache, type Sender, type SenderDomain } from './sender.cache.js';
import { deliverJob } from './deliver.job.js';
import { releasePaused } from './release.js';
import { type Actor, assertDomainAccess, mayUseTemplate } from '../../core/actor.js';
import { yieldToIo } from '../../lib/slices.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';

export interface SendWarning {
  type: 'SOME_SUPPRESSED' | 'ALL_SUPPRESSED';
  warning: string;
  recipients: { email: string; name: string | null; reasons: SuppressionReason[] }[];
}

export interface SendResult {
  message_id: string;
  send_paused: boolean;
  warnings: SendWarning[];
}

export interface SendOptions {
  idempotencyKey?: string | null;
  bulkEmailId?: string | null;
  now?: Date;
  /** Where the send came from, for postbox_sends_accepted_total (`rest`, `graphql`, `smtp`, `bulk`). */
  surface?: 'rest' | 'graphql' | 'smtp' | 'bulk';
}

const UNVERIFIED = 'The from.email domain must be verified in your account to send emails. #MS42207';

/** The domains `email` may be sent from: the domain itself or a parent of its subdomain. */
function candidatesOf(email: string): string[] {
  const labels = email.slice(email.lastIndexOf('@') + 1).toLowerCase().split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** The most specific verified match wins. */
function senderDomain(domains: SenderDomain[], from: string): SenderDomain | null {
  const candidates = new Set(candidatesOf(from));
  return domains.filter((d) => d.is_verified && candidates.has(d.name)).sort((a, b) => b.name.length - a.name.length)[0] ?? null;
}

interface Judged {
  bag: FieldErrorBag;
  checked: CheckedSend;
  from: Address | null;
  subject: string | null;
  domain: SenderDomain | null;
  /** The retention of the account's plan now: the sent mail keeps it (config/plans.ts purgeAfter). */
  retentionDays: number;
}

/** The send judged against the account's plan and domains: what it is, or its field errors. */
function judge(args: SendEmailArgs, template: Template | null, sender: Sender | null, now: Date, translation: TemplateTranslation | null): Judged {
  if (!sender) throw errors.unauthenticated();
  const bag = new FieldErrorBag();
  const checked = checkSend(args, sender.plan, now, bag);
  if (args.template_id && !template) bag.add('template_id', msg.in('template_id'));
  const from: Address | null = args.from?.email
    ? { email: args.from.email, name: args.from.name ?? null }
    : template?.default_from_email
      ? { email: template.default_from_email, name: template.default_from_name }
      : null;
  if (!from && !args.from) bag.add('from', msg.required('from'));
  else if (!from) bag.add('from.email', msg.required('from.email'));
  const subject = args.subject ?? translation?.subject ?? template?.default_subject ?? null;
  if (subject == null && template) bag.add('subject', msg.required('subject'));
  let domain: SenderDomain | null = null;
  if (from && !bag.has('from.email')) {
    domain = senderDomain(sender.domains, from.email);
    if (!domain) bag.add('from.email', UNVERIFIED);
  }
  return { bag, checked, from, subject, domain, retentionDays: sender.retention_days };
}

/** Attachment bytes past which a send gives the event loop back between its checks and its write. */
const LARGE_ATTACHMENTS = 1024 * 1024;

/**
 * Accepts one send (SPEC.md "Sending email"): validates it, then writes the message, its emails,
 * their first activity and the delivery job in one statement (accept.repository.ts). Nothing is
 * accepted that is not durably queued, and nothing is queued that was not accepted. Outside a
 * transaction that is two round trips: the suppressions, then the write; the account's plan and
 * domains come from the sender cache. Inside the caller's transaction (a bulk send's item) the
 * same statements run in it.
 */
export async function acceptSend(
  services: AppServices,
  em: EntityManager,
  auth: Actor,
  args: SendEmailArgs,
  opts: SendOptions = {},
): Promise<SendResult> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  let template: Template | null = null;
  // The template must be one the caller can see: a domain-limited token's own domain's only, a
  // template-limited user's own templates only (test/users/grants.test.ts).
  if (args.template_id && mayUseTemplate(auth, args.template_id)) template = await em.findOne(Template, { id: args.template_id, ...visibleTo(auth) });
  // SPEC.md: the template's translation in the send's language, else its own content, no error.
  const translation = template && args.language ? await em.findOne(TemplateTranslation, { template, language: args.language }) : null;
  const repo = new AcceptRepository(em);
  const cache = senderCache(services);
  const load = () => repo.sender(auth.accountId, environmentRetention(services.config));
  const { sender, kept } = await cache.get(auth.accountId, load);
  let judged = judge(args, template, sender, now, translation);
  // Refused on kept data: judged again on fresh data (a domain verified a moment ago must not wait for the NOTIFY).
  if (!judged.bag.empty && kept) judged = judge(args, template, (await cache.get(auth.accountId, load, true)).sender, now, translation);
  judged.bag.throwIfAny();
  const { checked } = judged;
  // Large attachments were decoded and checked: others are served before this send's write
  // serialises them, so the two do not hold the event loop as one (bench/worst-inputs.ts).
  if (checked.attachments.reduce((n, a) => n + a.content.length, 0) > LARGE_ATTACHMENTS) await yieldToIo();
  const [from, subject, domain] = [judged.from!, judged.subject!, judged.domain!];
  assertDomainAccess(auth, domain.id);
  const key = opts.idempotencyKey ?? null;
  if (key && key.length > 255) throw errors.invalid('Idempotency-Key', 'The Idempotency-Key may not be greater than 255 characters.');

  // Everything below writes nothing until the one statement, which writes all of it or nothing.
  const list = recipientsOf(args, domain);
  const subjects = await renderAtAccept(services.config, renderParts(args, subject, translation ?? template, opts.surface), list.to, personalizationOf(args), opts.surface === 'smtp');
  const addresses = [...list.to, ...list.cc, ...list.bcc].map((a) => a.email);
  const draft: Draft = {
    plan: { accountId: auth.accountId, domain, templateId: template?.id ?? null, templateTags: template?.tags ?? null, from, subject, args, checked, bulkEmailId: opts.bulkEmailId ?? null, now, subjects, retentionDays: judged.retentionDays },
    list,
    key: key ? { key, requestHash: createHash('sha256').update(JSON.stringify(args)).digest('hex') } : null,
  };
  // First as if no suppression concerned the send, checked in the same statement (one round trip);
  // when one might, the statement wrote nothing and returned what it found, and the send is
  // judged on it and written by a second statement.
  let made = make(draft, new Map());
  const check = matchInput(auth.accountId, domain.id, [...new Set(addresses.map((a) => a.toLowerCase()))]);
  // Unkeyed sends outside a transaction may share their statement with others (group commit).
  const batched = !made.rows.claim && !em.getTransactionContext();
  let out = batched ? await acceptBatcher(services).write(made.rows, check) : await repo.write(made.rows, check);
  if (out.matches) {
    made = make(draft, await reasonsFrom(out.matches, addresses));
    out = await repo.write(made.rows, null);
  }
  if (!out.written) return priorAnswer(em, made.rows.claim!);
  for (const [topic, notice] of activityNotices(made.rows.activities)) afterCommit(em, topic, notice);
  sendsAccepted.inc({ surface: opts.surface ?? (opts.bulkEmailId ? 'bulk' : 'graphql'), status: made.status });
  sendAcceptSeconds.observe((performance.now() - started) / 1000);
  return made.result;
}

/**
 * What a send renders, each with the field a 422 names: its own subject, html and text, else the
 * template's (or its translation's), as delivery will read them. Mail relayed over SMTP is not a
 * template: only its subject is rendered, and leniently (render.ts).
 */
function renderParts(args: SendEmailArgs, subject: string, content: { html: string; text: string } | null, surface: SendOptions['surface']): RenderPart[] {
  const parts: RenderPart[] = [{ field: args.subject != null ? 'subject' : 'template_id', source: subject, mode: 'subject' }];
  if (surface === 'smtp') return parts;
  parts.push({ field: args.html != null ? 'html' : 'template_id', source: args.html ?? content?.html ?? null, mode: 'html' });
  parts.push({ field: args.text != null ? 'text' : 'template_id', source: args.text ?? content?.text ?? null, mode: 'text' });
  return parts;
}

/** A judged send, ready to be written once its suppressions are known. */
interface Draft {
  plan: AcceptPlan;
  list: ReturnType<typeof recipientsOf>;
  key: { key: string; requestHash: string } | null;
}

/** The rows and the answer of a send, given the reasons some of its addresses may not be sent to. */
function make(d: Draft, reasons: Map<string, SuppressionReason>): { rows: AcceptRows; result: SendResult; status: string } {
  const { list, plan } = d;
  const suppressed = [...list.to, ...list.cc, ...list.bcc].filter((a) => reasons.has(a.email));
  const sendable = list.to.filter((a) => !reasons.has(a.email)).length;
  const paused = plan.domain.send_paused;
  const sendAt = plan.checked.sendAt;
  const pendingStatus = paused ? 'paused' : sendAt ? 'scheduled' : 'queued';
  const rows = acceptRows(plan, list, reasons, pendingStatus, (message_id) =>
    // Held (paused) and all-suppressed messages get no job: unpausing the domain queues them.
    sendable && !paused ? outboxRows(deliverJob, [{ message_id }], sendAt ? { startAfter: sendAt } : {}) : '[]',
  );
  const result: SendResult = { message_id: rows.message.id, send_paused: paused, warnings: warningsFor(suppressed, reasons, sendable === 0) };
  if (d.key) {
    rows.claim = { account_id: plan.accountId, key: d.key.key, request_hash: d.key.requestHash, response: result, created_at: plan.now.toISOString() };
  }
  return { rows, result, status: sendable ? pendingStatus : 'suppressed' };
}

/**
 * A retry with a key another request took: that request's answer, or 422 when it was another
 * request. The key's holder committed before this statement could decide (it waited on the row).
 */
async function priorAnswer(em: EntityManager, claim: IdempotencyClaim): Promise<SendResult> {
  const prior = await new IdempotencyRepository(em).prior<SendResult>(claim.account_id, claim.key);
  if (!prior || prior.request_hash !== claim.request_hash) {
    throw errors.invalid('Idempotency-Key', 'The Idempotency-Key was already used for a different request.');
  }
  return prior.response;
}

function warningsFor(suppressed: Address[], reasons: Map<string, SuppressionReason>, all: boolean): SendWarning[] {
  if (!suppressed.length) return [];
  return [
    {
      type: all ? 'ALL_SUPPRESSED' : 'SOME_SUPPRESSED',
      warning: all
        ? 'None of the recipients were sent this email: all of them are suppressed.'
        : 'Some of the recipients have not been sent this email because they are suppressed.',
      recipients: suppressed.map((a) => ({ email: a.email, name: a.name ?? null, reasons: [reasons.get(a.email)!] })),
    },
  ];
}

/**
 * A domain's sending switched back on: the messages it held go out, queued in the transaction
 * that unpaused it. Domains announce it (domainSendingResumed); sending owns the messages. The
 * module's manifest subscribes it.
 */
export const releaseOnDomainResumed: TxEventHandler<{ domain_id: string }, Pick<AppServices, 'boss'>> = async (tx, { domain_id }, { boss }) => {
  await releasePaused(tx, boss, domain_id);
};
