/**
 * MTA-STS (RFC 8461): a recipient domain's policy that its mail must reach only the MX hosts it
 * names, over TLS with a certificate valid for the host. The parts here are pure: reading the
 * `_mta-sts` TXT record and the policy file, and matching an MX host against the policy.
 */

export type MtaStsMode = 'enforce' | 'testing' | 'none';

export interface MtaStsPolicy {
  /** The TXT record's id the policy was fetched for. */
  id: string;
  mode: MtaStsMode;
  /** Host patterns: a name, or `*.` and a name (one label more, RFC 8461 section 4.1). */
  mx: string[];
  /** Seconds the policy may be cached. */
  maxAge: number;
}

/** RFC 8461 section 3.2: at most a year. */
export const MAX_AGE_LIMIT = 31_557_600;
/** Policy bodies beyond this are refused before they are read further (the RFC suggests 64 KiB). */
export const POLICY_MAX_BYTES = 64 * 1024;

const ID = /^[A-Za-z0-9]{1,32}$/;

/**
 * The id of the domain's `_mta-sts` TXT records, or null when there is no policy: exactly one
 * record must start with `v=STSv1` and carry a valid id (section 3.1).
 */
export function stsRecordId(records: readonly string[]): string | null {
  const sts = records.filter((r) => /^v=STSv1\s*(;|$)/.test(r));
  if (sts.length !== 1) return null;
  for (const field of sts[0].split(';')) {
    const [k, v] = field.split('=').map((x) => x?.trim());
    if (k === 'id' && v !== undefined && ID.test(v)) return v;
  }
  return null;
}

/** The policy file's fields (section 3.2), or null when it is not a valid STSv1 policy. */
export function parsePolicy(text: string, id: string): MtaStsPolicy | null {
  if (text.length > POLICY_MAX_BYTES) return null;
  let version = '';
  let mode: MtaStsMode | null = null;
  let maxAge = -1;
  const mx: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    if (key === 'version') version = value;
    else if (key === 'mode' && (value === 'enforce' || value === 'testing' || value === 'none')) mode = value;
    else if (key === 'max_age' && /^\d{1,10}$/.test(value)) maxAge = Math.min(Number(value), MAX_AGE_LIMIT);
    else if (key === 'mx' && value && mx.length < 100) mx.push(value.toLowerCase().replace(/\.$/, ''));
  }
  if (version !== 'STSv1' || !mode || maxAge < 0 || (mode !== 'none' && !mx.length)) return null;
  return { id, mode, mx, maxAge };
}

/** Whether `host` is one of the policy's MX patterns; `*.example.net` stands for one label more. */
export function mxMatches(policy: Pick<MtaStsPolicy, 'mx'>, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return policy.mx.some((pattern) => {
    if (!pattern.startsWith('*.')) return pattern === name;
    const dot = name.indexOf('.');
    return dot > 0 && name.slice(dot + 1) === pattern.slice(2);
  });
}
