/**
 * The comparers of inbound filters, for email and SMS inbound routes alike (the mailersend SDK's
 * ComparerType; SPEC.md "Inbound routing" and "SMS inbound route").
 */
export const COMPARERS = [
  'equal',
  'not-equal',
  'contains',
  'not-contains',
  'starts-with',
  'ends-with',
  'not-starts-with',
  'not-ends-with',
] as const;
export type Comparer = (typeof COMPARERS)[number];
