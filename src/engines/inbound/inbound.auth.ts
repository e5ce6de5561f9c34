import mailauth from 'mailauth';
import type { Dns } from '../../lib/dns.js';


/** How the SMTP client handed the message over: what SPF checks. */
export interface SmtpClient {
  ip?: string;
  helo?: string;
}

/**
 * The SPF, DKIM and DMARC verdicts on a received message, as an inbound webhook carries them
 * (`data.auth`): `result` is RFC 8601's word (pass, fail, softfail, neutral, none, temperror,
 * permerror), `domain` what it was checked for.
 */
export interface AuthResults {
  spf: { result: string; domain: string | null };
  dkim: { result: string; domain: string | null; selector: string | null }[];
  dmarc: { result: string; domain: string | null; policy: string | null };
}

const NONE: AuthResults = { spf: { result: 'none', domain: null }, dkim: [], dmarc: { result: 'none', domain: null, policy: null } };

/** The whole check gives up after this long: the sender is waiting for its SMTP answer. */
const BUDGET_MS = 10_000;

/**
 * mailauth asks DNS like `dns.promises.resolve`: TXT as chunk lists, and "no such record" as an
 * ENOTFOUND/ENODATA error (what SPF counts as a void lookup), not as an empty answer.
 */
function resolverOf(dns: Dns) {
  const orMissing = <T>(name: string, list: T[]): T[] => {
    if (list.length) return list;
    throw Object.assign(new Error(`no records for ${name}`), { code: 'ENODATA' });
  };
  return async (name: string, rrtype: string): Promise<any> => {
    switch (rrtype) {
      case 'TXT':
        return orMissing(name, (await dns.txt(name)).map((t) => [t]));
      case 'MX':
        return orMissing(name, await dns.mx(name));
      case 'A':
        return orMissing(name, await dns.a(name));
      case 'PTR':
        return orMissing(name, await dns.ptr(name));
      case 'CNAME':
        return orMissing(name, await dns.cname(name));
      default:
        // AAAA and the rest: the service's resolver asks for none of them.
        return orMissing(name, []);
    }
  };
}

/**
 * DKIM signatures checked per message. Real mail carries one to three (the author's domain, an
 * ESP's, a mailing list's); each costs a DNS lookup and, with its own canonicalization and
 * length, a pass over the body, so only the first ones are checked (test/inbound/limits.test.ts).
 */
export const MAX_DKIM_SIGNATURES = 10;

const DKIM_FIELD = /^dkim-signature[ \t]*:/i;

/**
 * The message as mailauth is to see it: its header block without the DKIM-Signature fields
 * past the first MAX_DKIM_SIGNATURES (the bytes stored and forwarded are never changed). The
 * header block is at most 1 MB: bounded-mail.ts refused the message otherwise.
 */
export function withFirstSignatures(raw: Buffer): Buffer {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 2 : lf >= 0 ? lf + 1 : raw.length;
  const lines = raw.subarray(0, end).toString('latin1').split('\n');
  let seen = 0;
  let dropping = false;
  const kept = lines.filter((line) => {
    // A line that starts with a space or tab continues the field before it.
    if (line.startsWith(' ') || line.startsWith('\t')) return !dropping;
    dropping = DKIM_FIELD.test(line) && ++seen > MAX_DKIM_SIGNATURES;
    return !dropping;
  });
  if (seen <= MAX_DKIM_SIGNATURES) return raw;
  return Buffer.concat([Buffer.from(kept.join('\n'), 'latin1'), raw.subarray(end)]);
}

/**
 * Authenticates a received message as its SMTP client sent it (RFC 7208 SPF on the client IP,
 * HELO and MAIL FROM; its first MAX_DKIM_SIGNATURES DKIM signatures; DMARC alignment of the From
 * domain). Never throws: a check
 * that could not run is `temperror`, so a message is never refused or lost for it.
 */
export async function authenticateInbound(dns: Dns, raw: Buffer, mailFrom: string, client: SmtpClient, mta: string): Promise<AuthResults> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), BUDGET_MS)));
  try {
    // An IPv4 client of a dual-stack socket shows up as `::ffff:a.b.c.d`; SPF wants the IPv4 form.
    const ip = client.ip?.startsWith('::ffff:') && client.ip.includes('.') ? client.ip.slice(7) : client.ip;
    const run = mailauth.authenticate(withFirstSignatures(raw), {
      ip,
      helo: client.helo,
      sender: mailFrom || undefined,
      mta,
      resolver: resolverOf(dns),
      disableArc: true,
      disableBimi: true,
    });
    const res = await Promise.race([run, late]);
    if (res === 'late') return temperror();
    return {
      spf: res.spf ? { result: res.spf.status.result, domain: res.spf.domain ?? null } : NONE.spf,
      dkim: res.dkim.results.map((d) => ({ result: d.status.result, domain: d.signingDomain ?? null, selector: d.selector ?? null })),
      dmarc: res.dmarc ? { result: res.dmarc.status.result, domain: res.dmarc.domain ?? null, policy: res.dmarc.policy ?? null } : NONE.dmarc,
    };
  } catch {
    return temperror();
  } finally {
    clearTimeout(timer);
  }
}

function temperror(): AuthResults {
  return { spf: { result: 'temperror', domain: null }, dkim: [], dmarc: { result: 'temperror', domain: null, policy: null } };
}
