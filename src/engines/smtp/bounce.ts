import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../core/services.js';
import { recordActivities, type ActivityEmail } from '../../modules/activity/activity.record.js';
import type { ActivityType } from '../../modules/activity/activity.entity.js';
import { suppressRecipient } from '../../modules/suppressions/suppression.add.js';
import type { MailRefusal } from '../../lib/mail-in-pool.js';
import { readReport, type Report } from './bounce.report.js';
import { BounceRepository, type BounceStatus } from './bounce.repository.js';

export interface ReportOutcome {
  handled: boolean;
  /** What was recorded: hard_bounced, soft_bounced, deferred, spam_complaints, or nothing new. */
  outcome: ActivityType | 'duplicate' | null;
  emailId: string | null;
  /** The SMTP reply for a report that could not be read within its limits (report.ts). */
  refusal?: MailRefusal;
}

/** The return path delivery writes: `bounces+<email id>@<return-path subdomain>.<domain>` (or `@<RETURN_PATH_TARGET>`). */
const VERP = /^bounces\+([a-z0-9]{16})@/i;

export function isReturnPath(address: string): boolean {
  return VERP.test(address);
}

const VERP_ADDRESS = /^bounces\+([a-z0-9]{16})@([a-z0-9-]{1,63})\.([a-z0-9.-]{1,253})$/i;

/**
 * A return path this service wrote: `bounces+<id>@<sub>.<domain>` where <domain> is one of its
 * domains and <sub> that domain's return-path subdomain, or `bounces+<id>@<RETURN_PATH_TARGET>`
 * for an email that exists. The subdomain can be changed after mail
 * went out, so an email of that domain with the id in the address vouches for an older one.
 * Anything else is not ours, however it is spelled: reports to it need a login like any relay.
 */
export async function isOurReturnPath(em: EntityManager, address: string, returnPathTarget: string): Promise<boolean> {
  const m = VERP_ADDRESS.exec(address.trim());
  if (!m) return false;
  const [, id, sub, domain] = m.map((x) => x.toLowerCase());
  // A domain whose return-path CNAME is not verified sends with RETURN_PATH_TARGET's host (engines/delivery/delivery.compose.ts).
  if (`${sub}.${domain}` === returnPathTarget.toLowerCase().replace(/\.$/, '')) return new BounceRepository(em).emailExists(id);
  return new BounceRepository(em).isReturnPathOf(domain, sub, id);
}

/** A bounce that was already recorded: a second copy of the report changes nothing. */
const BOUNCED: readonly string[] = ['hard_bounced', 'soft_bounced'] satisfies BounceStatus[];

/** Which email a report is about: the VERP address it came to, else the original Message-ID it quotes. */
async function findEmail(em: EntityManager, rcptTo: string[], report: Report): Promise<string | null> {
  for (const r of rcptTo) {
    const m = VERP.exec(r);
    if (m) return m[1].toLowerCase();
  }
  const messageId = report.kind === 'none' ? null : report.originalMessageId;
  if (!messageId) return null;
  return new BounceRepository(em).emailIdBySmtpMessageId(messageId);
}

/**
 * Turns a bounce (DSN) or a complaint (ARF) that came back to us into the email's activity and the
 * recipient's suppression, once: a second copy of the same report changes nothing.
 * - DSN `failed` with a 5.x.x status → hard_bounced (and the hard-bounce list); 4.x.x → soft_bounced.
 * - DSN `delayed` → a deferred activity; the email stays as it is.
 * - ARF (any feedback type) → spam_complaints activity (event `activity.spam_complaint`) and the
 *   spam-complaint list.
 * - A report that cannot be read within its limits changes nothing; `refusal` is the SMTP reply.
 */
export async function processReport(services: AppServices, mail: { rcptTo: string[]; raw: Buffer }): Promise<ReportOutcome> {
  const read = await readReport(services.config, mail.raw);
  if ('refusal' in read) return { handled: false, outcome: null, emailId: null, refusal: read.refusal };
  const { report } = read;
  const em = services.orm.em.fork();
  const emailId = await findEmail(em, mail.rcptTo, report);
  if (report.kind === 'none' || !emailId) return { handled: false, outcome: null, emailId };

  return em.transactional(async (tx) => {
    const repo = new BounceRepository(tx);
    const email = await repo.lockEmail(emailId);
    if (!email) return { handled: false, outcome: null, emailId };
    const ref: ActivityEmail = email;
    const suppress = (list: 'hard_bounces' | 'spam_complaints', reason: string) =>
      suppressRecipient(tx, { accountId: email.account_id, domainId: email.domain_id, recipientId: email.recipient_id, list, reason });

    if (report.kind === 'arf') {
      if (await repo.hasComplaint(email.id)) return { handled: true, outcome: 'duplicate', emailId };
      await recordActivities(tx, [{ email: ref, type: 'spam_complaints', data: { smtp_response: `feedback-type: ${report.feedbackType}` } }]);
      await suppress('spam_complaints', `Complaint (${report.feedbackType}) reported by the mailbox provider`);
      return { handled: true, outcome: 'spam_complaints', emailId };
    }

    const lower = email.to_email.toLowerCase();
    const block = report.recipients.find((r) => r.recipient?.toLowerCase() === lower) ?? report.recipients.find((r) => r.action === 'failed' || r.action === 'delayed');
    if (!block) return { handled: true, outcome: null, emailId };
    const response = [block.status, block.diagnostic].filter(Boolean).join(' ').slice(0, 2000);
    if (block.action === 'delayed') {
      await recordActivities(tx, [{ email: ref, type: 'deferred', data: { smtp_response: response } }]);
      return { handled: true, outcome: 'deferred', emailId };
    }
    if (block.action !== 'failed') return { handled: true, outcome: null, emailId };
    if (BOUNCED.includes(email.status)) return { handled: true, outcome: 'duplicate', emailId };
    const outcome: BounceStatus = block.status.startsWith('5') ? 'hard_bounced' : 'soft_bounced';
    await repo.setBounced(email.id, outcome, response);
    await recordActivities(tx, [{ email: ref, type: outcome, data: { smtp_response: response } }]);
    if (outcome === 'hard_bounced') await suppress('hard_bounces', response || 'Bounced');
    return { handled: true, outcome, emailId };
  });
}
