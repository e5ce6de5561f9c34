import { comparerHolds } from '../../core/comparers.js';
import { ACTIVE_RECIPIENT, OPTED_OUT, type SmsRecipientStatus } from '../sms/sms.statuses.js';

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

/** Does the route take this text? No filter: every text. */
export function routeMatches(route: RouteFilter, text: string): boolean {
  if (!route.filter_comparer || route.filter_value == null) return true;
  const subject = fold(text.trim());
  const value = fold(route.filter_value);
  return comparerHolds(route.filter_comparer, [subject], value);
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
