import { deliverySeconds } from '../../lib/metrics.js';
import type { AppServices } from '../../core/services.js';
import type { ActivityEmail } from '../../modules/activity/activity.record.js';
import { PermanentMailError } from '../../modules/mail/smtp-transport.js';
import { HeldMailError } from '../../modules/mail/site-shaper.js';
import type { SuppressionReason } from '../../modules/suppressions/suppression.matcher.js';
import { compose, type Prepared } from './delivery.compose.js';
import type { BatchClaim, DeliveryEngine } from './delivery.engine.js';
import type { ClaimedEmail } from './delivery.repository.js';
import type { Outcome } from './outcome.recorder.js';
import type { TlsPolicyUsed } from '../../lib/mail.js';

/**
 * Emails the receiving server accepted (250) whose outcome could not be committed: the database
 * went away between the 250 and the commit (a restart, a dropped connection). The batch's next try
 * in this process (its job's retry, or the takeover of its lease row) records them without sending again, so a database outage sends nothing twice; only
 * a process that dies in that window does (docs/api-behaviour.md, "Exactly once"). Bounded: the oldest go first.
 * Email id → the server's response to its 250.
 */
const acceptedUnrecorded = new Map<string, string>();
const UNRECORDED_MAX = 10_000;

/** An email its destination's pace put off (site-shaper.ts): nothing was sent or recorded, and it goes at `until`. */
export interface Held {
  held: Date;
}

/**
 * One email: suppressed, or built, signed and handed to the transport, then its outcome recorded
 * (the slot is held until the commit, so DELIVERY_CONCURRENCY bounds what a killed worker can
 * leave between a 250 and its record). `lost` when its batch was taken over by another worker
 * before its turn came (this process froze past its lease): then it is not sent from here.
 */
export async function deliverEmail(
  services: AppServices,
  engine: DeliveryEngine,
  p: Prepared,
  email: ClaimedEmail,
  batch: BatchClaim,
  lastAttempt: boolean,
  suppressed: SuppressionReason | null,
): Promise<Outcome['row']['status'] | 'lost' | Held> {
  const m = p.message;
  const ref: ActivityEmail = {
    id: email.id,
    account_id: m.account_id,
    domain_id: m.domain_id,
    message_id: m.id,
    subject: email.subject,
    to_email: email.to_email,
    tags: email.tags,
    purge_after: m.purge_after,
  };
  try {
    if (!(await engine.holds(batch))) return 'lost';
    const outcome = suppressed ? suppressedOutcome(ref, suppressed) : await send(services, p, email, ref, lastAttempt);
    if ('held' in outcome) return outcome;
    await engine.recorder.record(outcome);
    acceptedUnrecorded.delete(email.id);
    return outcome.row.status;
  } finally {
    engine.held.delete(email.id);
  }
}

function suppressedOutcome(ref: ActivityEmail, reason: SuppressionReason): Outcome {
  return {
    row: { id: ref.id, status: 'suppressed', suppression_reason: reason, tried: 0, response: null },
    email: ref,
    activities: [{ type: 'suppressed', suppression_reason: reason }],
  };
}

async function send(services: AppServices, p: Prepared, email: ClaimedEmail, ref: ActivityEmail, lastAttempt: boolean): Promise<Outcome | Held> {
  const accepted = acceptedUnrecorded.get(email.id);
  if (accepted !== undefined) return delivered(ref, accepted, 0);
  let tried = 0;
  try {
    const mime = await compose(services.config, p, email);
    tried = 1;
    const t0 = performance.now();
    const info = await services.mail
      .sendRaw({
        envelope: mime.envelope,
        raw: mime.raw,
        meta: { email_id: email.id, to: email.to_email, from: p.message.from_email, subject: email.subject, text: mime.text ?? '', html: mime.html },
        pool: p.message.ip_pool,
      })
      .finally(() => deliverySeconds.observe((performance.now() - t0) / 1000));
    const response = info.response.slice(0, 2000);
    if (acceptedUnrecorded.size >= UNRECORDED_MAX) acceptedUnrecorded.delete(acceptedUnrecorded.keys().next().value!);
    acceptedUnrecorded.set(email.id, response);
    return delivered(ref, response, 1, info.tls_policy);
  } catch (err) {
    if (err instanceof HeldMailError) return { held: err.until };
    const response = ((err as { response?: string }).response ?? String((err as Error).message ?? err)).slice(0, 2000);
    const permanent = err instanceof PermanentMailError;
    const status = permanent ? 'hard_bounced' : lastAttempt ? 'soft_bounced' : 'deferred';
    services.log.info({ email: email.id, outcome: status, response }, 'delivery refused');
    return {
      row: { id: email.id, status, suppression_reason: null, tried, response },
      email: ref,
      activities: [{ type: status, data: { smtp_response: response } }],
      ...(permanent ? { hardBounce: { recipientId: email.recipient_id, reason: response } } : {}),
    };
  }
}

/** A delivered email's outcome; its events carry the TLS policy its session went under, when the transport says (MX delivery). */
function delivered(ref: ActivityEmail, response: string, tried: number, tls?: TlsPolicyUsed): Outcome {
  const data = { smtp_response: response, ...(tls ? { tls_policy: tls } : {}) };
  return {
    row: { id: ref.id, status: 'delivered', suppression_reason: null, tried, response },
    email: ref,
    activities: [
      { type: 'sent', data },
      { type: 'delivered', data },
    ],
  };
}
