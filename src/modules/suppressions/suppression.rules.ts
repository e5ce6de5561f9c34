import { compilePattern, expansion, PROGRAM_MAX } from './suppression.matcher.js';
import { label, msg, type FieldErrorBag } from '../../core/errors.js';

export const MANUAL_REASON = 'Added via API';
const PATTERN_MAX = 191;
const DEFAULT_HOLD_MS = 30 * 86_400_000;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Compiling costs time in proportion to the program's instructions: this bounds what one request makes it compile (test/suppressions/redos.test.ts). */
const REQUEST_PROGRAM_MAX = 50_000;

/**
 * Blocklist patterns are matched against every outgoing address, in the API and the worker. They
 * run on RE2 (re2js), whose time is linear in the address, so no pattern can backtrack; what RE2
 * cannot run in linear time (backreferences, lookaround) it does not compile, and those are
 * refused here, as is a pattern whose program would be large enough to make each match slow.
 */
export function checkPatterns(patterns: string[], bag: FieldErrorBag): void {
  // A pattern over PROGRAM_MAX is refused without compiling, so it counts as no more than that.
  const sized = patterns.filter((p) => p.length <= PATTERN_MAX);
  const cost = sized.reduce((n, p) => n + Math.min(expansion(p), PROGRAM_MAX + 1), 0);
  const affordable = cost <= REQUEST_PROGRAM_MAX;
  if (!affordable) bag.add('patterns', `The ${label('patterns')} are too complex together; add them in smaller batches.`);
  patterns.forEach((p, i) => {
    const field = `patterns.${i}`;
    if (!p.trim()) return void bag.add(field, msg.required(field));
    if (p.length > PATTERN_MAX) return void bag.add(field, msg.maxString(field, PATTERN_MAX));
    const compiled = affordable ? compilePattern(p) : null;
    if (compiled === 'too_complex') {
      bag.add(field, `The ${label(field)} is too complex; write it with smaller repetition counts ({n}).`);
    } else if (compiled === 'unsupported') {
      const text = jsValid(p)
        ? `The ${label(field)} uses syntax blocklist patterns do not support (such as backreferences or lookaround); they use RE2 syntax.`
        : `The ${label(field)} must be a valid regular expression.`;
      bag.add(field, text);
    }
  });
}

/** Whether JavaScript accepts the pattern: what RE2 refuses is then a feature it lacks, not a typo. */
function jsValid(p: string): boolean {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
}

/** `on_hold_until` of a manual hold: an ISO 8601 time in the future, or 30 days from now. */
export function holdUntil(value: string | null | undefined, bag: FieldErrorBag, now = new Date()): Date {
  if (value == null) return new Date(now.getTime() + DEFAULT_HOLD_MS);
  const at = new Date(value);
  if (!ISO_8601.test(value) || Number.isNaN(at.getTime())) {
    bag.add('on_hold_until', `The ${label('on_hold_until')} must be an ISO 8601 date and time.`);
  } else if (at <= now) {
    bag.add('on_hold_until', `The ${label('on_hold_until')} must be a date after now.`);
  }
  return at;
}

/** Addresses compare case-insensitively; each is stored once, lowercased. */
export function normalEmails(emails: string[]): string[] {
  return [...new Set(emails.map((e) => e.trim().toLowerCase()))];
}
