import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../lib/ids.js';
import type { AppServices } from '../../services.js';
import { enqueue } from '../../jobs/boss.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import type { TxEventHandler } from '../../core/events.js';
import { Template } from '../templates/template.entity.js';
import { visibleTo } from '../../db/scoped.js';
import { reasonsFor, type SuppressionReason } from '../suppressions/suppression.matcher.js';
import { recordActivities, type NewActivity } from '../activity/record.js';
import { Email, Message, MessageAttachment, type Address } from '../messages/message.entity.js';
import type { SendEmailArgs } from './send.inputs.js';
import { checkSend } from './send.validate.js';
import { IdempotencyRepository, IDEMPOTENCY_TTL_HOURS } from './idempotency.repository.js';
import { RecipientRepository } from '../recipients/recipient.repository.js';
import { deliverJob } from './deliver.job.js';
import { personalize } from './render.js';
import { releasePaused } from './release.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
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
}

const UNVERIFIED = 'The from.email domain must be verified in your account to send emails. #MS42207';

/** The domains `email` may be sent from: the domain itself or a parent of its subdomain. */
function candidatesOf(email: string): string[] {
  const labels = email.slice(email.lastIndexOf('@') + 1).toLowerCase().split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/**
 * The account and the candidate sending domains in one round trip (the domains joined with their
 * account); the account alone only when no candidate exists.
 */
async function accountAndDomains(em: EntityManager, accountId: string, from: string | null): Promise<{ account: Account; domains: Domain[] }> {
  if (from) {
    const domains = await em.find(Domain, { account: accountId, name: { $in: candidatesOf(from) } }, { populate: ['account'] });
    if (domains.length) return { account: domains[0].account, domains };
  }
  return { account: await em.findOneOrFail(Account, { id: accountId }), domains: [] };
}

/** The most specific verified match wins. */
const senderDomain = (domains: Domain[]) =>
  domains.filter((d) => d.is_verified).sort((a, b) => b.name.length - a.name.length)[0] ?? null;

const lower = (s: string) => s.toLowerCase();

/**
 * Accepts one send (SPEC.md "Sending email"): validates it, then writes the message, its emails,
 * their first activity and the delivery job in one transaction. Nothing is accepted that is not
 * durably queued, and nothing is queued that was not accepted.
 */
export async function acceptSend(
  services: AppServices,
  em: EntityManager,
  auth: Actor,
  args: SendEmailArgs,
  opts: SendOptions = {},
): Promise<SendResult> {
  const now = opts.now ?? new Date();
  let template: Template | null = null;
  // The template must be one the caller can see: a domain-limited token's own domain's only.
  if (args.template_id) template = await em.findOne(Template, { id: args.template_id, ...visibleTo(auth) });
  const claimed = args.from?.email ?? template?.default_from_email ?? null;
  const { account, domains } = await accountAndDomains(em, auth.accountId, claimed);
  const bag = new FieldErrorBag();
  const checked = checkSend(args, account.plan, now, bag);
  if (args.template_id && !template) bag.add('template_id', msg.in('template_id'));
  const from: Address | null = args.from?.email
    ? { email: args.from.email, name: args.from.name ?? null }
    : template?.default_from_email
      ? { email: template.default_from_email, name: template.default_from_name }
      : null;
  if (!from && !args.from) bag.add('from', msg.required('from'));
  else if (!from) bag.add('from.email', msg.required('from.email'));
  const subject = args.subject ?? template?.default_subject ?? null;
  if (subject == null && template) bag.add('subject', msg.required('subject'));

  let domain: Domain | null = null;
  if (from && !bag.has('from.email')) {
    domain = senderDomain(domains);
    if (!domain) bag.add('from.email', UNVERIFIED);
  }
  bag.throwIfAny();
  assertDomainAccess(auth, domain!.id);

  const requestHash = createHash('sha256').update(JSON.stringify(args)).digest('hex');
  return em.transactional(async (tx) => {
    if (opts.idempotencyKey) {
      const prior = await claimIdempotencyKey(tx, auth.accountId, opts.idempotencyKey, requestHash, now);
      if (prior) return prior;
    }
    const result = await writeMessage(services, tx, { account, domain: domain!, template, from: from!, subject: subject!, args, checked, opts, now });
    if (opts.idempotencyKey) {
      await new IdempotencyRepository(tx).answer(auth.accountId, opts.idempotencyKey, result);
    }
    return result;
  });
}

/**
 * Takes the key for this request, or returns the answer the first request with it got. A
 * concurrent twin blocks on the key's row until the first commits, then reads its answer.
 */
async function claimIdempotencyKey(
  tx: EntityManager,
  accountId: string,
  key: string,
  requestHash: string,
  now: Date,
): Promise<SendResult | null> {
  if (key.length > 255) throw errors.invalid('Idempotency-Key', 'The Idempotency-Key may not be greater than 255 characters.');
  const keys = new IdempotencyRepository(tx);
  await keys.forgetOlder(accountId, key, new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000));
  if (await keys.claim(accountId, key, requestHash, now)) return null;
  const prior = await keys.prior<SendResult>(accountId, key);
  if (prior.request_hash !== requestHash) {
    throw errors.invalid('Idempotency-Key', 'The Idempotency-Key was already used for a different request.');
  }
  return prior.response;
}

interface WriteInput {
  account: Account;
  domain: Domain;
  template: Template | null;
  from: Address;
  subject: string;
  args: SendEmailArgs;
  checked: ReturnType<typeof checkSend>;
  opts: SendOptions;
  now: Date;
}

async function writeMessage(services: AppServices, tx: EntityManager, w: WriteInput): Promise<SendResult> {
  const { args, domain, now } = w;
  const seen = new Set<string>();
  // With ignore_duplicated_recipients, an address is written to once per message, wherever it appears.
  const dedupe = (list: Address[]) =>
    domain.settings.ignore_duplicated_recipients
      ? list.filter((a) => (seen.has(lower(a.email)) ? false : (seen.add(lower(a.email)), true)))
      : list;
  const norm = (list: { email: string; name?: string | null }[] | null | undefined): Address[] =>
    (list ?? []).map((a) => ({ email: a.email, name: a.name ?? null }));
  const to = dedupe(norm(args.to));
  const cc = dedupe(norm(args.cc));
  const bcc = dedupe(norm(args.bcc));

  const reasons = await reasonsFor(tx, w.account.id, domain.id, [...to, ...cc, ...bcc].map((a) => a.email));
  const suppressed = [...to, ...cc, ...bcc].filter((a) => reasons.has(a.email));
  const sendable = to.filter((a) => !reasons.has(a.email));

  const paused = domain.settings.send_paused;
  const scheduled = w.checked.sendAt !== null;
  const pendingStatus = paused ? 'paused' : scheduled ? 'scheduled' : 'queued';
  const tags = args.tags ?? w.template?.tags ?? [];
  const personalization: Record<string, Record<string, unknown>> = {};
  for (const p of args.personalization ?? []) personalization[lower(p.email)] = p.data;

  const message = tx.create(Message, {
    id: newId(24),
    account: w.account,
    domain,
    bulk_email_id: w.opts.bulkEmailId ?? null,
    template_id: w.template?.id ?? null,
    from_email: w.from.email,
    from_name: w.from.name ?? null,
    reply_to: args.reply_to ? { email: args.reply_to.email, name: args.reply_to.name ?? null } : null,
    cc: cc.filter((a) => !reasons.has(a.email)),
    bcc: bcc.filter((a) => !reasons.has(a.email)),
    subject: w.subject,
    text: args.text ?? null,
    html: args.html ?? null,
    tags,
    language: args.language ?? null,
    personalization,
    settings: (args.settings ?? {}) as Message['settings'],
    headers: (args.headers ?? []).map((h) => ({ name: h.name, value: h.value })),
    in_reply_to: args.in_reply_to ?? null,
    references: args.references ?? [],
    list_unsubscribe: args.list_unsubscribe?.trim() ?? null,
    precedence_bulk: args.precedence_bulk ?? null,
    send_at: w.checked.sendAt,
    status: sendable.length ? pendingStatus : 'sent',
    created_at: now,
    updated_at: now,
  });
  w.checked.attachments.forEach((a, position) => tx.create(MessageAttachment, { ...a, message, position }));

  // One recipient per mailbox: stored lowercase, as the suppression lists store them.
  const unique = [...new Set(to.map((a) => lower(a.email)))];
  const recipientIds = await new RecipientRepository(tx).upsertForSend(w.account.id, domain.id, unique, now);
  const emails = to.map((a, position) =>
    tx.create(Email, {
      account: w.account,
      domain,
      message,
      recipient: recipientIds.get(lower(a.email))!,
      position,
      to_email: a.email,
      to_name: a.name ?? null,
      subject: personalize(w.subject, personalization[lower(a.email)] ?? {}, 'subject'),
      tags,
      status: reasons.has(a.email) ? 'suppressed' : pendingStatus,
      suppression_reason: reasons.get(a.email) ?? null,
      created_at: now,
      updated_at: now,
    }),
  );
  await tx.flush();

  // The job first: recording adds to the shared daily counts, whose row lock is then held for
  // one round trip less.
  if (sendable.length && !paused) {
    await enqueue(tx, services.boss, deliverJob, { message_id: message.id }, w.checked.sendAt ? { startAfter: w.checked.sendAt } : {});
  }
  await recordActivities(
    tx,
    emails.map(
      (e): NewActivity => ({
        email: { id: e.id, account_id: w.account.id, domain_id: domain.id, message_id: message.id, subject: e.subject, to_email: e.to_email, tags },
        type: e.status === 'suppressed' ? 'suppressed' : 'queued',
        suppression_reason: e.suppression_reason,
        at: now,
      }),
    ),
  );
  return { message_id: message.id, send_paused: paused, warnings: warningsFor(suppressed, reasons, sendable.length === 0) };
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
