import { ACTIVE_RECIPIENT, OPTED_OUT, type SmsRecipientStatus } from '../sms/statuses.js';

/**
 * What an inbound text does, as pure functions: which routes it is forwarded to, and whether it
 * opts its sender out of (or back into) the account's texts.
 *
 * Comparisons ignore case and the spaces around the text: phones add a trailing space after an
 * autocompleted word, and "Yes", "YES" and "yes" are meant alike. The filter value is used as
 * stored (lowercased), so a value with deliberate inner spaces keeps them.
 */
export interface RouteFilter {
  filter_comparer: string | null;
  filter_value: string | null;
}


const fold = (s: string) => s.normalize('NFC').toLowerCase();

function positive(comparer: string, text: string, value: string): boolean {
  switch (comparer) {
    case 'equal':
      return text === value;
    case 'contains':
      return text.includes(value);
    case 'starts-with':
      return text.startsWith(value);
    case 'ends-with':
      return text.endsWith(value);
    default:
      return false;
  }
}

/** Does the route take this text? No filter: every text. */
export function routeMatches(route: RouteFilter, text: string): boolean {
  if (!route.filter_comparer || route.filter_value == null) return true;
  const subject = fold(text.trim());
  const value = fold(route.filter_value);
  const negated = route.filter_comparer.startsWith('not-');
  const base = negated ? route.filter_comparer.slice(4) : route.filter_comparer;
  return positive(base, subject, value) !== negated;
}

/** The carrier-standard keywords (CTIA; Twilio's defaults): the whole text, any case. */
const OPT_OUT = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);
const OPT_IN = new Set(['start', 'yes', 'unstop']);

/** The recipient status a text asks for: `opt_out`, `active`, or null for an ordinary text. */
export function keywordStatus(text: string): SmsRecipientStatus | null {
  const word = text.trim().toLowerCase();
  if (OPT_OUT.has(word)) return OPTED_OUT;
  if (OPT_IN.has(word)) return ACTIVE_RECIPIENT;
  return null;
}
