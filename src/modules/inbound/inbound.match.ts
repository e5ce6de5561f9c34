import type { InboundFilter, InboundFilterRule } from './inbound.entity.js';
import { comparerHolds } from '../../core/comparers.js';

/**
 * The routing rules, as pure functions. Comparisons ignore case: addresses, domains and the
 * header values people filter on (list ids, auto-submitted) are not meant to differ by case.
 */

/** A filter as stored: the entity's shape plus how many rules must hold (`one` or, by default, all). */
export type StoredFilter = InboundFilter & { mode?: 'all' | 'one' };

/** One rule against the values it looks at, case ignored (core/comparers.ts says how each comparer holds). */
export function compare(comparer: string, subjects: string[], value: string): boolean {
  return comparerHolds(comparer, subjects.map((s) => s.toLowerCase()), value.toLowerCase());
}

function combine(filter: StoredFilter, test: (rule: InboundFilterRule) => boolean): boolean {
  if (!filter.filters.length) return true;
  return filter.mode === 'one' ? filter.filters.some(test) : filter.filters.every(test);
}

export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1).toLowerCase();
}

/** The host, then each parent down to (not including) the top-level label: `a.b.c` → `a.b.c`, `b.c`. */
export function hostAndParents(host: string): string[] {
  const labels = host.toLowerCase().split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** Is `host` the domain `name` or under it? */
export function isAtOrUnder(host: string, name: string): boolean {
  const h = host.toLowerCase();
  const n = name.toLowerCase();
  return h === n || h.endsWith(`.${n}`);
}

export function localPartOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? address : address.slice(0, at);
}

/** catch_filter: is this recipient (at the route's inbound domain) taken by the route? */
export function catches(filter: StoredFilter, recipient: string): boolean {
  if (filter.type !== 'catch_recipient') return true;
  return combine(filter, (rule) => compare(rule.comparer, [rule.value.includes('@') ? recipient : localPartOf(recipient)], rule.value));
}

/** What match filters look at: the envelope sender and the message's headers. */
export interface MatchSubject {
  sender: string;
  /** Lowercased header name → every value it has in the message. */
  headers: Map<string, string[]>;
}

/** match_filter: does the message (sender, headers) qualify for the route? */
export function matches(filter: StoredFilter, m: MatchSubject): boolean {
  switch (filter.type) {
    case 'match_sender':
      return combine(filter, (rule) => compare(rule.comparer, [m.sender], rule.value));
    case 'match_domain':
      return combine(filter, (rule) => compare(rule.comparer, [domainOf(m.sender)], rule.value));
    case 'match_header':
      return combine(filter, (rule) => compare(rule.comparer, m.headers.get((rule.key ?? '').toLowerCase()) ?? [], rule.value));
    default:
      return true;
  }
}

/** Header name → values, from mailparser's raw header lines (folded lines unfolded). */
export function headerMap(lines: { key: string; line: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { key, line } of lines) {
    const colon = line.indexOf(':');
    const value = (colon < 0 ? '' : line.slice(colon + 1)).replace(/\r?\n[ \t]+/g, ' ').trim();
    const list = out.get(key.toLowerCase()) ?? [];
    list.push(value);
    out.set(key.toLowerCase(), list);
  }
  return out;
}
