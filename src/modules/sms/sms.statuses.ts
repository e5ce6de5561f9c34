/**
 * The statuses of texts and of the numbers they go to. TypeScript and SQL share these constants
 * (SQL takes them as parameters), so a status renamed or added here changes wherever it is used.
 */

/** Where one text stands: queued → sent → delivered | failed; `skipped`: its recipient opted out, never sent. */
export const SMS_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/** What a provider reports, and what an activity records: every status a sent text can reach. */
export const REPORTED_SMS = ['queued', 'sent', 'delivered', 'failed'] as const satisfies readonly SmsStatus[];
export type ReportedSmsStatus = (typeof REPORTED_SMS)[number];

/** A text waiting for the send job (or for its paused number). */
export const QUEUED_SMS = 'queued' satisfies SmsStatus;
export const SKIPPED_SMS = 'skipped' satisfies SmsStatus;

/** A number the account texts: `opt_out` after an inbound STOP (or PUT), `active` again after START. */
export const SMS_RECIPIENT_STATUSES = ['active', 'opt_out'] as const;
export type SmsRecipientStatus = (typeof SMS_RECIPIENT_STATUSES)[number];
export const ACTIVE_RECIPIENT = 'active' satisfies SmsRecipientStatus;
export const OPTED_OUT = 'opt_out' satisfies SmsRecipientStatus;
