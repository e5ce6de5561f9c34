import safeRegex from 'safe-regex2';
import { label, msg } from '../../graphql/errors.js';
import type { FieldErrorBag } from '../../graphql/validation.js';

export const MANUAL_REASON = 'Added via API';
const PATTERN_MAX = 191;
const DEFAULT_HOLD_MS = 30 * 86_400_000;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Blocklist patterns are matched against every outgoing address, so one that can backtrack
 * catastrophically would stall sending: those are refused like a pattern that does not compile.
 */
export function checkPatterns(patterns: string[], bag: FieldErrorBag): void {
  patterns.forEach((p, i) => {
    const field = `patterns.${i}`;
    if (!p.trim()) return void bag.add(field, msg.required(field));
    if (p.length > PATTERN_MAX) return void bag.add(field, msg.maxString(field, PATTERN_MAX));
    try {
      new RegExp(p);
    } catch {
      return void bag.add(field, `The ${label(field)} must be a valid regular expression.`);
    }
    if (!safeRegex(p)) bag.add(field, `The ${label(field)} may backtrack without bound; write it more simply.`);
  });
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
