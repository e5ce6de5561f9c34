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

/** Each negated comparer and the positive one it denies. */
const POSITIVE_OF_NEGATED: Partial<Record<string, Comparer>> = {
  'not-equal': 'equal',
  'not-contains': 'contains',
  'not-starts-with': 'starts-with',
  'not-ends-with': 'ends-with',
};

function holdsPositive(comparer: string, subject: string, value: string): boolean {
  switch (comparer) {
    case 'equal':
      return subject === value;
    case 'contains':
      return subject.includes(value);
    case 'starts-with':
      return subject.startsWith(value);
    case 'ends-with':
      return subject.endsWith(value);
    default:
      return false;
  }
}

/**
 * One comparer against the values a rule looks at (an email header may occur several times, or
 * not at all; an SMS has one text). The caller folds subjects and value first: each channel
 * has its own rules of case. A positive comparer holds when some subject satisfies it; a
 * negated one when none satisfies its positive form, so `not-contains` on a missing header
 * holds (test/inbound/match.test.ts, test/sms-inbound).
 */
export function comparerHolds(comparer: string, subjects: readonly string[], value: string): boolean {
  const positive = POSITIVE_OF_NEGATED[comparer];
  if (positive) return !subjects.some((subject) => holdsPositive(positive, subject, value));
  return subjects.some((subject) => holdsPositive(comparer, subject, value));
}
