import { isEmail } from 'class-validator';

/**
 * A DMARC record parser after RFC 7489 section 6.3/6.4. Pure: it answers the tags or the first
 * problem found, worded to follow "The wanted dmarc record is invalid: ".
 */
export type DmarcTags = Partial<Record<DmarcTag, string>>;
export type DmarcTag = (typeof TAGS)[number];
export type ParseResult = { ok: true; tags: DmarcTags } | { ok: false; error: string };

const TAGS = ['v', 'p', 'sp', 'pct', 'adkim', 'aspf', 'fo', 'rua', 'ruf', 'ri', 'rf'] as const;
const POLICIES = ['none', 'quarantine', 'reject'];
const ALIGNMENTS = ['r', 's'];
const FO_OPTIONS = ['0', '1', 'd', 's'];
const MAX_U32 = 4294967295;

const fail = (error: string): ParseResult => ({ ok: false, error });

/** `mailto:addr` with an optional `!size[k|m|g|t]`; `,` and `!` inside the address are %-encoded. */
function uriProblem(tag: string, uri: string): string | null {
  const m = /^mailto:([^!]+)(?:!(\d+)([kmgt])?)?$/i.exec(uri);
  if (!m) return `each ${tag} entry must be a mailto: URI (optionally followed by !size), got "${uri}".`;
  let address: string;
  try {
    address = decodeURIComponent(m[1]);
  } catch {
    return `${tag} contains a badly encoded address "${m[1]}".`;
  }
  if (!isEmail(address)) return `${tag} contains an invalid email address "${address}".`;
  return null;
}

function valueProblem(tag: DmarcTag, value: string): string | null {
  const lower = value.toLowerCase();
  switch (tag) {
    case 'p':
    case 'sp':
      return POLICIES.includes(lower) ? null : `${tag} must be none, quarantine or reject.`;
    case 'adkim':
    case 'aspf':
      return ALIGNMENTS.includes(lower) ? null : `${tag} must be r or s.`;
    case 'pct':
      return /^\d{1,3}$/.test(value) && Number(value) <= 100 ? null : 'pct must be an integer from 0 to 100.';
    case 'ri':
      return /^\d{1,10}$/.test(value) && Number(value) <= MAX_U32 ? null : 'ri must be a whole number of seconds.';
    case 'fo': {
      const opts = lower.split(':').map((o) => o.trim());
      return opts.every((o) => FO_OPTIONS.includes(o)) ? null : 'fo must be one or more of 0, 1, d, s separated by colons.';
    }
    case 'rf':
      return lower.split(':').every((o) => o.trim() === 'afrf') ? null : 'rf must be afrf.';
    case 'rua':
    case 'ruf': {
      const uris = value.split(',').map((u) => u.trim());
      for (const uri of uris) {
        const problem = uri ? uriProblem(tag, uri) : `${tag} has an empty entry.`;
        if (problem) return problem;
      }
      return null;
    }
    default:
      return null;
  }
}

export function parseDmarcRecord(record: string): ParseResult {
  const parts = record.trim().split(';').map((p) => p.trim());
  // A trailing separator is allowed (dmarc-record ends with [dmarc-sep]); an empty tag elsewhere is not.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const version = /^v\s*=\s*(.*)$/.exec(parts[0] ?? '');
  if (!version || version[1] !== 'DMARC1') return fail('it must start with v=DMARC1;.');
  const tags: DmarcTags = { v: 'DMARC1' };
  for (const part of parts.slice(1)) {
    if (!part) return fail('it has an empty tag (two semicolons in a row).');
    const m = /^([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(part);
    if (!m) return fail(`"${part}" is not a tag=value pair.`);
    const name = m[1].toLowerCase();
    const value = m[2];
    if (!(TAGS as readonly string[]).includes(name)) return fail(`unknown tag "${m[1]}".`);
    const tag = name as DmarcTag;
    if (tag in tags) return fail(`the ${tag} tag appears more than once.`);
    if (!value) return fail(`the ${tag} tag has no value.`);
    const problem = valueProblem(tag, value);
    if (problem) return fail(problem);
    tags[tag] = value;
  }
  if (!tags.p) return fail('the p tag (none, quarantine or reject) is required.');
  return { ok: true, tags };
}
