/**
 * The names the DMARC reads filter by, shared by the inputs that accept them and the repository
 * that turns them into SQL.
 */

/** Values of the reports' `category` filter (SPEC.md leaves them open; docs/api-behaviour.md, "DMARC reads"). */
export const DMARC_CATEGORIES = ['favorites', 'compliant', 'non_compliant'] as const;
export type DmarcCategory = (typeof DMARC_CATEGORIES)[number];

/** The `status` filter of /report-sources, and the receiver's disposition each one means. */
export const DISPOSITION_OF = { accepted: 'none', rejected: 'reject', quarantined: 'quarantine' } as const;
export type ReportSourceStatus = keyof typeof DISPOSITION_OF;
export const REPORT_SOURCE_STATUSES = Object.keys(DISPOSITION_OF) as ReportSourceStatus[];

/** How a report arrived: by mail to the monitor's report address, or uploaded through the API. */
export type ReportChannel = 'smtp' | 'upload';
