/**
 * The SPF side of a check (RFC 7208 4.5/12): the domain's TXT records that start with `v=spf1`.
 * Statuses: not_found (none), multiple (more than one: a permerror for receivers),
 * invalid (one, with a term that is not a mechanism or modifier), valid.
 */
export type SpfStatus = 'valid' | 'not_found' | 'multiple' | 'invalid';

const MECHANISM = /^[+\-~?]?(all|include:\S+|a(:\S+)?(\/\d+)?(\/\/\d+)?|mx(:\S+)?(\/\d+)?(\/\/\d+)?|ptr(:\S+)?|ip4:[\d.]+(\/\d+)?|ip6:[0-9a-f:.]+(\/\d+)?|exists:\S+)$/i;
const MODIFIER = /^[a-z][a-z0-9_.-]*=\S*$/i;

export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(\s|$)/i.test(txt.trim());
}

export function spfStatus(records: string[]): { status: SpfStatus; record: string | null } {
  const spf = records.filter(isSpfRecord);
  if (spf.length === 0) return { status: 'not_found', record: null };
  if (spf.length > 1) return { status: 'multiple', record: spf.join('\n') };
  const record = spf[0].trim();
  const terms = record.split(/\s+/).slice(1);
  const ok = terms.every((t) => MECHANISM.test(t) || MODIFIER.test(t));
  return { status: ok ? 'valid' : 'invalid', record };
}
