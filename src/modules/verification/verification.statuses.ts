import type { VERIFICATION_RESULTS } from '../events/verification-events.js';

/**
 * The kinds and statuses of checked addresses and of lists. TypeScript and SQL share these
 * constants (SQL takes them as parameters), so a name changed here changes wherever it is used.
 */

/** `sync`: POST verify (stored for the credit ledger); `async`: verify-async; `list`: one address of a list. */
export const VERIFICATION_KINDS = ['sync', 'async', 'list'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const LIST_ADDRESS = 'list' satisfies VerificationKind;

/** A checked address: queued until its check ran, then completed, or failed when the check could not run. */
export const VERIFICATION_STATUSES = ['queued', 'completed', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const QUEUED_CHECK = 'queued' satisfies VerificationStatus;

export type VerificationResult = (typeof VERIFICATION_RESULTS)[number];
/** The result of a check that could not run: it costs no credit. */
export const FAILED_RESULT = 'failed' satisfies VerificationResult;

/** What a stored check's status is, from its result. */
export const statusOf = (result: VerificationResult): VerificationStatus => (result === FAILED_RESULT ? 'failed' : 'completed');

export const LIST_STATUSES = ['uploading', 'created', 'verifying', 'verified', 'failed', 'canceled', 'paused'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
/** A list whose addresses are being checked: the only status in which results are stored. */
export const VERIFYING = 'verifying' satisfies ListStatus;
/** A list still taking chunks of addresses; finishing the upload makes it `created`. */
export const UPLOADING = 'uploading' satisfies ListStatus;
/** A list whose every check failed (none could run): it ends `failed` instead of `verified`. */
export const FAILED_LIST = 'failed' satisfies ListStatus;
/** Lists verify_email_verification_list may start (`created`) or resume (`paused`). */
export const STARTABLE_LIST = ['created', 'paused'] as const satisfies readonly ListStatus[];

/** Whether `status` is one of `group`: a typed `includes` for the groups above. */
export function isIn<S extends string>(group: readonly S[], status: string): status is S {
  return (group as readonly string[]).includes(status);
}
