import type * as Mailauth from 'mailauth';
import type { Dns } from '../../lib/dns.js';
import { lazy } from '../../lib/lazy.js';

/** Loaded on first use (lib/lazy.ts): only the smtp role authenticates mail. */
const mailauth = lazy<typeof Mailauth>('mailauth');

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
 * Authenticates a received message as its SMTP client sent it (RFC 7208 SPF on the client IP,
 * HELO and MAIL FROM; DKIM signatures; DMARC alignment of the From domain). Never throws: a check
 * that could not run is `temperror`, so a message is never refused or lost for it.
 */
export async function authenticateInbound(dns: Dns, raw: Buffer, mailFrom: string, client: SmtpClient, mta: string): Promise<AuthResults> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), BUDGET_MS)));
  try {
    // An IPv4 client of a dual-stack socket shows up as `::ffff:a.b.c.d`; SPF wants the IPv4 form.
    const ip = client.ip?.startsWith('::ffff:') && client.ip.includes('.') ? client.ip.slice(7) : client.ip;
    const run = mailauth().authenticate(raw, {
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
