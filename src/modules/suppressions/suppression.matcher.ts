import type { EntityManager } from '@mikro-orm/postgresql';
import { RE2JS } from 're2js';
import { inSlices } from '../../lib/slices.js';
import type { RecipientList } from './suppression.entity.js';
import { SuppressionRepository, type MatchRow } from './suppression.repository.js';

/** Why an address must not be sent to; the values of an activity's `suppression_reason`. */
export type SuppressionReason = 'on_hold' | 'hard_bounced' | 'unsubscribed' | 'spam_complained' | 'blocklisted';

const REASON_OF_LIST: Record<RecipientList, SuppressionReason> = {
  on_hold: 'on_hold',
  hard_bounces: 'hard_bounced',
  unsubscribes: 'unsubscribed',
  spam_complaints: 'spam_complained',
};

/** When an address is on several lists, the first reason here is the one reported. */
const PRIORITY: SuppressionReason[] = ['on_hold', 'hard_bounced', 'unsubscribed', 'spam_complained', 'blocklisted'];

/**
 * The suppression check of the sending pipeline: one query, whatever the number of addresses.
 * Addresses absent from the map may be sent to.
 */
export async function reasonsFor(
  em: EntityManager,
  accountId: string,
  domainId: string,
  emails: string[],
): Promise<Map<string, SuppressionReason>> {
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (!lowered.length) return new Map();
  // One round trip for both: the recipient lists by address, and the blocklist's exact entries
  // by address plus all of its patterns (those must be tried against each address).
  return reasonsFrom(await new SuppressionRepository(em).matchRows(accountId, domainId, lowered), emails);
}

/**
 * The reasons of `emails` from the rows the check read (MatchRow: matchRows, or a statement that
 * embeds matchCte): list entries by address, blocklist patterns tried against each address.
 */
export async function reasonsFrom(rows: MatchRow[], emails: string[]): Promise<Map<string, SuppressionReason>> {
  const found = new Map<string, Set<SuppressionReason>>();
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  const note = (email: string, reason: SuppressionReason) => {
    (found.get(email) ?? found.set(email, new Set()).get(email)!).add(reason);
  };
  const blocked: { type: 'email' | 'pattern'; pattern: string }[] = [];
  for (const row of rows) {
    if (row.kind === 'list') note(row.email, REASON_OF_LIST[row.list]);
    else blocked.push({ type: row.list, pattern: row.pattern });
  }
  const exact = new Set(blocked.filter((b) => b.type === 'email').map((b) => b.pattern.toLowerCase()));
  const texts = [...new Set(blocked.filter((b) => b.type === 'pattern').map((b) => b.pattern))];

  // Each test is linear in the address, but an account may hold many patterns: give the event
  // loop back between slices so that one account's blocklist cannot hold up everyone else.
  const slices = inSlices(SLICE_MS);
  const patterns: RE2JS[] = [];
  for (const text of texts) {
    const re = compilePattern(text);
    // Checked when added; one the engine refuses (stored before this rule) is skipped, never failing a send.
    if (typeof re !== 'string') patterns.push(re);
    await slices.between();
  }
  for (const email of lowered) {
    let hit = exact.has(email);
    for (let i = 0; !hit && i < patterns.length; i++) {
      hit = patterns[i].test(email);
      await slices.between();
    }
    if (hit) note(email, 'blocklisted');
  }

  const out = new Map<string, SuppressionReason>();
  for (const email of emails) {
    const reasons = found.get(email.toLowerCase());
    if (reasons) out.set(email, PRIORITY.find((r) => reasons.has(r))!);
  }
  return out;
}

/** Time the matcher runs before it lets other work in. */
const SLICE_MS = 10;

/**
 * The largest program a pattern may compile to (re2js `programSize()`, about one instruction per
 * character or class matched). RE2 runs in time linear in the address, but times the program size:
 * `^.{1,255}@.{1,64}$` is 641.
 */
export const PROGRAM_MAX = 1000;

/** Why a pattern cannot be used: syntax RE2 refuses, or a program over PROGRAM_MAX. */
export type PatternRefusal = 'unsupported' | 'too_complex';

/**
 * Compiled patterns by text, refusals included, so that a blocklist is not compiled again on every
 * send. Kept small on purpose: re2js grows a DFA per pattern as it matches (up to 8 MB each).
 */
const CACHE_MAX = 32;
const cache = new Map<string, RE2JS | PatternRefusal>();

/**
 * A blocklist pattern as the matcher runs it: RE2 syntax, case-insensitive, found anywhere in the
 * address unless anchored (`test` is RegExp.test's unanchored search; `matches` would anchor both ends).
 */
export function compilePattern(text: string): RE2JS | PatternRefusal {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const compiled = compileUncached(text);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(text, compiled);
  return compiled;
}

function compileUncached(text: string): RE2JS | PatternRefusal {
  // Compiling expands counted repetition, so its cost is checked before compiling too.
  if (expansion(text) > PROGRAM_MAX) return 'too_complex';
  let re: RE2JS;
  try {
    re = RE2JS.compile(text, RE2JS.CASE_INSENSITIVE);
  } catch {
    return 'unsupported';
  }
  return re.programSize() > PROGRAM_MAX ? 'too_complex' : re;
}

const REPEAT = /^\{(\d+)(,(\d*))?\}/;

/**
 * An estimate, from the text alone, of the program a pattern compiles to: one per atom, two per
 * group (its capture), counted repetition multiplying what it repeats (`x{n}` n copies, `x{n,m}`
 * m - n more optional ones of two instructions each). Compiling `(\w{31}){31}` fourteen times over
 * takes milliseconds, so such a pattern is refused before any compiling; the estimate stays within a
 * few instructions of `programSize()`, which is checked after compiling.
 */
export function expansion(text: string): number {
  const open = [0];
  let last = 0;
  const add = (n: number) => (open[open.length - 1] += n);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') {
      open.push(0);
      continue;
    }
    if (c === ')') {
      last = (open.length > 1 ? open.pop()! : 0) + 2;
      add(last);
      continue;
    }
    const rep = c === '{' ? REPEAT.exec(text.slice(i, i + 24)) : null;
    if (rep) {
      const min = Number(rep[1]);
      const max = rep[2] === undefined ? min : rep[3] ? Math.max(Number(rep[3]), min) : min + 1;
      const copies = min + 2 * (max - min);
      add(last * (copies - 1));
      last *= copies;
      i += rep[0].length - 1;
      continue;
    }
    if (c === '\\') i = skipEscape(text, i);
    else if (c === '[') i = skipClass(text, i);
    if (c === '*' || c === '+' || c === '?' || c === '|') {
      add(1);
      continue;
    }
    last = 1;
    add(1);
  }
  return open.reduce((a, b) => a + b, 0);
}

/** Index of the last character of the escape at `i`: `\x{263a}` and `\p{Greek}` run to their brace. */
function skipEscape(text: string, i: number): number {
  if ('xpP'.includes(text[i + 1]) && text[i + 2] === '{') {
    const end = text.indexOf('}', i + 3);
    return end < 0 ? text.length : end;
  }
  return i + 1;
}

/** Index of the `]` closing the class opened at `i` (a `]` first in the class is a literal). */
function skipClass(text: string, i: number): number {
  let j = i + 1;
  if (text[j] === '^') j++;
  if (text[j] === ']') j++;
  for (; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === ']') return j;
  }
  return text.length;
}
