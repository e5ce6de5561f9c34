import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobAttempt } from '../../jobs/job.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { decrypt } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { recordActivities, type ActivityEmail } from '../activity/record.js';
import type { Domain } from '../domains/domain.entity.js';
import { PermanentMailError } from '../mail/smtp-transport.js';
import { suppressRecipient } from '../suppressions/suppression.add.js';
import { reasonsFor, type SuppressionReason } from '../suppressions/suppression.matcher.js';
import { Template } from '../templates/template.entity.js';
import { instrument, unsubscribeUrl } from '../tracking/instrument.js';
import { Email, Message, MessageAttachment, type Address } from '../messages/message.entity.js';
import { MessageRepository } from './message.repository.js';
import { DELIVERABLE_MESSAGE, isIn, PENDING_EMAIL } from '../messages/status.js';
import { buildMime } from './mime.js';
import { personalize } from './render.js';

type Outcome = 'delivered' | 'hard_bounced' | 'soft_bounced' | 'deferred' | 'suppressed' | 'skipped';

/** The message's content and sending context, loaded once for all of its emails. */
interface Prepared {
  message: Message;
  domain: Domain;
  html: string | null;
  text: string | null;
  attachments: MessageAttachment[];
  privateKey: string;
  /** The message's cc and bcc less those suppressed since it was accepted. */
  cc: Address[];
  bcc: Address[];
}

export class DeferredDelivery extends Error {}

/**
 * Decrypted DKIM keys by their sealed form: decrypting costs more than signing, and a worker
 * sends many messages of few domains. A new key (a new sealed value) is simply a new entry.
 */
const keys = new Map<string, string>();
function dkimKey(appSecret: string, sealed: string): string {
  let key = keys.get(sealed);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    key = decrypt(appSecret, sealed);
    keys.set(sealed, key);
  }
  return key;
}

export async function deliverMessage(services: AppServices, messageId: string, attempt: JobAttempt): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  const message = await em.findOne(Message, { id: messageId }, { populate: ['domain'] });
  if (!message || !isIn(DELIVERABLE_MESSAGE, message.status)) return;
  const domain = message.domain;

  // Paused after acceptance: wait. Switching send_paused off enqueues the message again.
  if (domain.settings.send_paused) {
    await new MessageRepository(em).pause(message.id);
    return;
  }

  // A domain the sandbox trusted without DNS sends into the capture transport only: mail leaves
  // the machine from DNS-verified domains alone, whatever this process's settings say.
  if (domain.trusted && services.config.MAIL_TRANSPORT !== 'capture') {
    await giveUp(em, message.id, 'The domain was trusted by the sandbox (DOMAIN_VERIFICATION=trust) and has not passed DNS verification.');
    return;
  }

  let html = message.html;
  let text = message.text;
  if (message.template_id) {
    const template = await em.findOne(Template, { id: message.template_id });
    // SPEC.md: a scheduled send whose template was deleted before the send time is not sent.
    if (!template) {
      await giveUp(em, message.id, 'The template was deleted before the send time.');
      return;
    }
    html = html ?? template.html;
    text = text ?? template.text;
  }
  // A schedule cancelled since the message was read must stay cancelled: take it only if still waiting.
  if (!(await new MessageRepository(em).take(message.id))) return;

  const prepared: Prepared = {
    message,
    domain,
    html,
    text,
    attachments: await em.find(MessageAttachment, { message: message.id }, { orderBy: { position: 'asc' } }),
    privateKey: dkimKey(services.config.APP_SECRET, domain.dkim_private_key_enc),
    cc: message.cc,
    bcc: message.bcc,
  };
  const pending = await em.find(Email, { message: message.id, status: { $in: [...PENDING_EMAIL] } }, { orderBy: { position: 'asc' } });
  const lastAttempt = attempt.retryCount >= attempt.retryLimit;
  // Checked again at send time: an address may have been suppressed since the message was
  // accepted (a scheduled send, an unsubscribe, a bounce of an earlier message).
  const reasons = await reasonsFor(em, message.account.id, domain.id, [
    ...pending.map((e) => e.to_email),
    ...message.cc.map((a) => a.email),
    ...message.bcc.map((a) => a.email),
  ]);
  prepared.cc = message.cc.filter((a) => !reasons.has(a.email));
  prepared.bcc = message.bcc.filter((a) => !reasons.has(a.email));
  let deferred = 0;
  for (const email of pending) {
    const outcome = await deliverEmail(services, prepared, email.id, lastAttempt, reasons.get(email.to_email) ?? null);
    if (outcome === 'deferred') deferred++;
  }
  if (deferred) throw new DeferredDelivery(`${deferred} email(s) of message ${message.id} deferred; retrying later`);
  await new MessageRepository(em).finishIfDone(message.id);
}

/** A message that cannot be sent at all: it ends in `error` with the reason, its pending emails cancelled. */
async function giveUp(em: EntityManager, messageId: string, reason: string): Promise<void> {
  await em.transactional((tx) => new MessageRepository(tx).fail(messageId, reason));
}

/**
 * Emails the receiving server accepted (250) whose outcome could not be committed: the database
 * went away between the 250 and the commit (a restart, a dropped connection). The job's retry in
 * this process records them without sending again, so a database outage sends nothing twice; only
 * a process that dies in that window does (README "Exactly once"). Bounded: the oldest go first.
 */
const acceptedUnrecorded = new Map<string, { messageId: string; response: string }>();
const UNRECORDED_MAX = 10_000;

/**
 * One email, in one transaction that holds its row: a second worker skips it, and a worker killed
 * mid-send leaves it pending (the transaction dies with the connection) to be sent on retry.
 */
async function deliverEmail(
  services: AppServices,
  p: Prepared,
  emailId: string,
  lastAttempt: boolean,
  suppressed: SuppressionReason | null,
): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deliverEmailOnce(services, p, emailId, lastAttempt, suppressed);
    } catch (err) {
      // A 250 the database did not let us record: record it (never send it again) as soon as the
      // database is back, rather than at the job's retry, so that the memory of it is at risk
      // (a process dying) only for about as long as the database is away.
      if (!acceptedUnrecorded.has(emailId) || !isDatabaseUnavailable(err) || attempt >= RECORD_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1000, 200 * attempt)));
    }
  }
}
/** About a minute of trying to record an accepted email before the job's own retry takes over. */
const RECORD_ATTEMPTS = 60;

async function deliverEmailOnce(
  services: AppServices,
  p: Prepared,
  emailId: string,
  lastAttempt: boolean,
  suppressed: SuppressionReason | null,
): Promise<Outcome> {
  const em = services.orm.em.fork() as EntityManager;
  const result = await em.transactional(async (tx) => {
    if (!(await new MessageRepository(tx).lockPendingEmail(emailId))) return 'skipped';
    const email = await tx.findOneOrFail(Email, { id: emailId });
    const { message, domain } = p;
    const ref: ActivityEmail = {
      id: email.id,
      account_id: message.account.id,
      domain_id: domain.id,
      message_id: message.id,
      subject: email.subject,
      to_email: email.to_email,
      tags: email.tags,
    };
    if (suppressed) {
      email.status = 'suppressed';
      email.suppression_reason = suppressed;
      await recordActivities(tx, [{ email: ref, type: 'suppressed', suppression_reason: suppressed }]);
      await tx.flush();
      return 'suppressed';
    }
    let outcome: Outcome;
    try {
      const accepted = acceptedUnrecorded.get(email.id);
      if (accepted) {
        email.smtp_message_id = accepted.messageId;
        email.last_response = accepted.response;
      } else {
        const mime = await compose(services, p, email);
        email.attempts += 1;
        email.smtp_message_id = mime.messageId;
        const info = await services.mail.sendRaw({
          envelope: mime.envelope,
          raw: mime.raw,
          meta: { email_id: email.id, to: email.to_email, from: message.from_email, subject: email.subject, text: mime.text ?? '', html: mime.html },
        });
        email.last_response = info.response.slice(0, 2000);
        if (acceptedUnrecorded.size >= UNRECORDED_MAX) acceptedUnrecorded.delete(acceptedUnrecorded.keys().next().value!);
        acceptedUnrecorded.set(email.id, { messageId: mime.messageId, response: email.last_response });
      }
      outcome = 'delivered';
      await recordActivities(tx, [
        { email: ref, type: 'sent', data: { smtp_response: email.last_response } },
        { email: ref, type: 'delivered', data: { smtp_response: email.last_response } },
      ]);
    } catch (err) {
      const response = ((err as { response?: string }).response ?? String((err as Error).message ?? err)).slice(0, 2000);
      email.last_response = response;
      if (err instanceof PermanentMailError) {
        outcome = 'hard_bounced';
        await suppressRecipient(tx, { accountId: ref.account_id, domainId: domain.id, recipientId: email.recipient.id, list: 'hard_bounces', reason: response });
      } else {
        outcome = lastAttempt ? 'soft_bounced' : 'deferred';
      }
      await recordActivities(tx, [{ email: ref, type: outcome as 'hard_bounced', data: { smtp_response: response } }]);
      services.log.info({ email: email.id, outcome, response }, 'delivery refused');
    }
    email.status = outcome;
    await tx.flush();
    return outcome;
  });
  acceptedUnrecorded.delete(emailId);
  return result;
}

async function compose(services: AppServices, p: Prepared, email: Email) {
  const { message, domain } = p;
  const { config } = services;
  const data = message.personalization[email.to_email.toLowerCase()] ?? {};
  const settings = domain.settings;
  const unsubscribe = settings.track_unsubscribe;
  const parts = instrument(
    {
      html: p.html === null ? null : personalize(p.html, data, 'html'),
      text: p.text === null ? null : personalize(p.text, data, 'text'),
    },
    email.id,
    {
      opens: message.settings.track_opens ?? settings.track_opens,
      clicks: message.settings.track_clicks ?? settings.track_clicks,
      unsubscribe,
      unsubscribeHtml: settings.track_unsubscribe_html_enabled ? settings.track_unsubscribe_html : null,
      unsubscribePlain: settings.track_unsubscribe_plain_enabled ? settings.track_unsubscribe_plain : null,
    },
    config,
  );
  const listUnsubscribe = message.list_unsubscribe ?? (unsubscribe ? `<${unsubscribeUrl(config, email.id)}>` : null);
  const messageId = `<${email.id}@${domain.name}>`;
  const first = email.position === 0;
  const built = await buildMime({
    messageId,
    from: { email: message.from_email, name: message.from_name },
    to: { email: email.to_email, name: email.to_name },
    cc: first ? p.cc : [],
    bcc: first ? p.bcc : [],
    replyTo: message.reply_to,
    subject: email.subject,
    html: parts.html,
    text: parts.text,
    attachments: p.attachments,
    headers: message.headers,
    inReplyTo: message.in_reply_to,
    references: message.references,
    listUnsubscribe,
    oneClick: !!listUnsubscribe && listUnsubscribe.includes('<https://'),
    precedenceBulk: message.precedence_bulk ?? settings.precedence_bulk,
    // VERP: a bounce that comes back names the email it is about.
    returnPath: `bounces+${email.id}@${settings.return_path_subdomain}.${domain.name}`,
    dkim: { domainName: domain.name, keySelector: domain.dkim_selector, privateKey: p.privateKey },
  });
  return { ...built, messageId, html: parts.html, text: parts.text };
}
