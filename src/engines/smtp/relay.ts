import type { Config } from '../../config/index.js';
import { mailParsePool, parseMailInPool } from '../../lib/mail-in-pool.js';
import { poolOf, type UntrustedPool } from '../../lib/untrusted-pool.js';
import type { AppServices } from '../../core/services.js';
import { Account, type Plan } from '../../modules/accounts/account.entity.js';
import { acceptSend } from '../../modules/sending/send.service.js';
import { SmtpUser } from '../../modules/smtp-users/smtp-user.entity.js';
import { QuotaService } from '../../modules/quota/quota.service.js';
import { firstAddress, onDomain, toSendArgs } from './ingest.js';
import { type Actor } from '../../core/actor.js';
import { isAppError, type AppError } from '../../core/errors.js';

type ParseSettings = Pick<Config, 'SMTP_MAX_MESSAGE_BYTES' | 'UNTRUSTED_PARSE_THREADS' | 'UNTRUSTED_PARSE_TIMEOUT_MS'>;

/**
 * MIME nodes one relayed message may have, and as many attachments: SPEC.md bounds a send's
 * attachments by their size only (25 MB each, within MAX_BODY_BYTES), not by their count, so the
 * relay keeps the bound its MIME parser always had (mailsplit's default of 1,000 nodes), and any of
 * them may be an attachment. Its decoded content is bounded by SMTP_MAX_MESSAGE_BYTES: base64 and
 * quoted-printable only shrink.
 */
const RELAY_PARTS = 1000;
/** A relay thread's heap: the text and html of a message of SMTP_MAX_MESSAGE_BYTES fit with room (attachments live outside the heap). */
const THREAD_HEAP_MB = 512;
/** Messages waiting for a thread at most; past that the client gets a 451 and tries later. */
const QUEUE = 32;

/** The relay's parse pool of an app (its config), made on first use; the app's close ends it. */
function poolFor(config: ParseSettings): UntrustedPool {
  return poolOf(config, 'smtp-relay', () =>
    mailParsePool({ threads: config.UNTRUSTED_PARSE_THREADS, queue: QUEUE, timeoutMs: config.UNTRUSTED_PARSE_TIMEOUT_MS, heapMb: THREAD_HEAP_MB }),
  );
}

/** Who an authenticated SMTP session belongs to (kept as `session.user`). */
export interface RelayUser {
  id: string;
  username: string;
  accountId: string;
  domainId: string;
  domainName: string;
}

/** An error smtp-server answers with its code; the text starts with the enhanced status code. */
export const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

export const userOf = (u: SmtpUser): RelayUser => ({
  id: u.id,
  username: u.username,
  accountId: u.account.id,
  domainId: u.domain.id,
  domainName: u.domain.name,
});

/**
 * MAIL FROM: the user must still be enabled (a pooled connection outlives a switch-off) and the
 * envelope sender must be on the user's domain.
 */
export async function checkSender(services: AppServices, user: RelayUser, sender: string): Promise<RelayUser> {
  const fresh = await services.orm.em.fork().findOne(SmtpUser, { id: user.id, enabled: true }, { populate: ['domain'] });
  if (!fresh) throw smtpError(535, '5.7.8 This SMTP user is disabled or no longer exists');
  const current = userOf(fresh);
  if (!sender) throw smtpError(553, '5.7.1 A sender address is required: the null sender is not accepted for relay');
  if (!onDomain(sender, current.domainName)) {
    throw smtpError(553, `5.7.1 Sender address rejected: it must be on ${current.domainName} (the domain of this SMTP user) or a subdomain of it`);
  }
  return current;
}

/**
 * Each relayed message is a request of its account: it counts in the account's rate window and
 * daily quota like an API call (SMTP users have no token window of their own), and over either
 * it is a temporary refusal, which the client retries later.
 */
async function meter(services: AppServices, user: RelayUser, plan: Plan): Promise<void> {
  const u = await new QuotaService(services.orm.em.fork(), services.config).meterAccount(user.accountId, plan);
  const wait = (until: Date) => Math.max(1, Math.ceil((until.getTime() - u.now.getTime()) / 1000));
  if (u.accountRate.hits > u.accountRate.limit) {
    throw smtpError(451, `4.7.0 Too many requests for this account; try again in ${wait(u.accountRate.resetsAt)} s`);
  }
  if (u.quota.hits > u.quota.limit) {
    throw smtpError(451, `4.7.0 The daily API quota of ${u.quota.limit} requests is used up; try again in ${wait(u.quota.resetsAt)} s`);
  }
}

/** SMTP's side of the error catalogue: the first validation message, or the error's own text. */
function refusalOf(err: AppError) {
  const first = Object.values(err.fields ?? {})[0]?.[0];
  return smtpError(550, `5.7.1 ${first ?? err.message}`);
}

/**
 * One mail from an SMTP user into the same pipeline as POST /v1/email, under an Actor limited to
 * the user's domain. Returns the `250` text naming the message id webhooks will carry.
 */
export async function relayMessage(services: AppServices, user: RelayUser, raw: Buffer, envelope: string[]): Promise<string> {
  const em = services.orm.em.fork();
  const account = await em.findOneOrFail(Account, { id: user.accountId });
  await meter(services, user, account.plan);
  // Off the event loop and within bounds (cid: links stay as they are, no text or html is converted).
  const limits = { maxParts: RELAY_PARTS, maxAttachments: RELAY_PARTS, maxDecodedBytes: services.config.SMTP_MAX_MESSAGE_BYTES };
  const read = await parseMailInPool(poolFor(services.config), raw, limits, { skipHtmlToText: true, skipTextLinks: true });
  if ('refusal' in read) throw smtpError(read.refusal.code, read.refusal.message);
  const parsed = read.mail;
  const from = firstAddress(parsed.from);
  if (!from) throw smtpError(550, '5.7.1 The message has no From header address');
  if (!onDomain(from.email, user.domainName)) {
    throw smtpError(550, `5.7.1 From header rejected: it must be on ${user.domainName} (the domain of this SMTP user) or a subdomain of it`);
  }
  const auth: Actor = { accountId: user.accountId, tokenId: `smtp:${user.id}`, scopes: new Set(['email_full']), domainId: user.domainId };
  try {
    const result = await acceptSend(services, em, auth, toSendArgs(parsed, envelope, account.plan), { surface: 'smtp' });
    return `Message queued as ${result.message_id}`;
  } catch (err) {
    if (isAppError(err)) throw refusalOf(err);
    throw err;
  }
}
