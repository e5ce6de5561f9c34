/**
 * The statuses of messages and emails, and the groups the code asks about. TypeScript and SQL
 * share these constants (SQL takes them as parameters), so a status renamed or added here is
 * renamed or added everywhere it is asked about.
 */

/**
 * Where an accepted send stands. `scheduled` waits for `send_at`, `paused` for its domain's
 * `send_paused` to be switched off; `sent` means every email reached a final state; `cancelled`
 * is a schedule deleted by the caller, `error` a schedule that could not go out (its template was
 * deleted), with the reason in `status_message`.
 */
export const MESSAGE_STATUSES = ['queued', 'scheduled', 'paused', 'sending', 'sent', 'cancelled', 'error'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Messages delivery may still take up (a retry finds its own `sending` message). */
export const DELIVERABLE_MESSAGE = ['queued', 'scheduled', 'paused', 'sending'] as const satisfies readonly MessageStatus[];

/**
 * Whether the message of SQL alias `m` is still shown: its retention has not run out
 * (`purge_after`, stamped at acceptance) or delivery may still take it up, as the purge keeps
 * those too. Reads of mail hide the rest at once, whenever the purge job next runs
 * (test/retention/retention.test.ts); the statuses are written into the text, constants only.
 */
export const messageShown = (m: string): string =>
  `(${m}.purge_after is null or ${m}.purge_after > now() or ${m}.status in (${DELIVERABLE_MESSAGE.map((s) => `'${s}'`).join(', ')}))`;

/** messageShown for the ORM, as of `now`. */
export const messageShownFilter = (now: Date) => ({
  $or: [{ purge_after: null }, { purge_after: { $gt: now } }, { status: { $in: [...DELIVERABLE_MESSAGE] } }],
});

/**
 * Messages still waiting for their send time or their domain: a schedule in this state can be
 * cancelled. SQL has it as the messages' generated column `waiting` (migration 20261126140000),
 * indexed by domain; test/sending/waiting-column.test.ts keeps the two the same.
 */
export const WAITING_MESSAGE = ['scheduled', 'paused'] as const satisfies readonly MessageStatus[];

/** Messages handed to delivery, as schedules show them (`sent`). */
export const HANDED_OVER_MESSAGE = ['queued', 'sending', 'sent'] as const satisfies readonly MessageStatus[];

/**
 * What happened to one email. `queued`, `scheduled`, `paused` and `deferred` are still to be
 * delivered; the others are final.
 */
export const EMAIL_STATUSES = [
  'queued',
  'scheduled',
  'paused',
  'deferred',
  'sent',
  'delivered',
  'soft_bounced',
  'hard_bounced',
  'suppressed',
  'rejected',
  'cancelled',
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Emails still to be delivered. */
export const PENDING_EMAIL = ['queued', 'scheduled', 'paused', 'deferred'] as const satisfies readonly EmailStatus[];

/** Emails no delivery has tried yet: cancelling a schedule cancels these. */
export const UNTRIED_EMAIL = ['queued', 'scheduled', 'paused'] as const satisfies readonly EmailStatus[];

/** Emails waiting for delivery that a paused domain holds back. */
export const PAUSABLE_EMAIL = ['queued', 'scheduled'] as const satisfies readonly EmailStatus[];

/** Emails that went out (or are on their way out again): only these can be read or clicked. */
export const TRACKABLE_EMAIL = ['sent', 'delivered', 'soft_bounced', 'hard_bounced', 'deferred'] as const satisfies readonly EmailStatus[];

/** Whether `status` is one of `group`: a typed `includes` for the groups above. */
export function isIn<S extends string>(group: readonly S[], status: string): status is S {
  return (group as readonly string[]).includes(status);
}
