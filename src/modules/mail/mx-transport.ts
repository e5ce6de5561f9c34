import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import { mailHostAddresses, mailHosts, TtlCache, type CheckedAddresses } from '../../lib/mail-hosts.js';
import type { MtaStsPolicies } from './mta-sts.js';
import type { DanePolicies } from './dane.js';
import { daneOf, hostsUnderPolicy, mxPools, sendUnderPolicy, tlsReporter } from './mx-policy.js';
import { sendPooledRaw } from './raw-send.js';
import type { MailTransport, RawMail, SendInfo, TlsPolicyUsed } from '../../lib/mail.js';
import { classify, message, outcome, PermanentMailError, TemporaryMailError, type Info } from './smtp-transport.js';
import { HeldMailError, type SiteShaper } from './site-shaper.js';
import type { Source, SourceAddresses } from './source-addresses.js';
import type { TlsSessions } from '../tls-reports/tls-session.recorder.js';
import { asksToSlowDown, type Site } from '../../lib/shaping.js';

export interface MxOptions {
  port: number;
  timeoutMs?: number;
  /** The pace of each destination site: its pools' sizes, its rates, its slow-downs. */
  shaper: SiteShaper;
  /** The source address of each email (IP_POOLS) and its EHLO name. */
  sources: SourceAddresses;
  /** TLS sessions counted for the recipient domains' TLS reports; none counted when unset. */
  tlsSessions?: TlsSessions;
  /** MX_ALLOW_PRIVATE: connect to loopback, private and reserved addresses too. */
  allowPrivate: boolean;
  /** Recipient domains' MTA-STS policies; none read when unset. */
  sts?: MtaStsPolicies;
  /** MX hosts' DANE records through a validating resolver (DANE_RESOLVER); none read when unset. */
  dane?: DanePolicies;
  /** Certificate authorities trusted beside the system's for a strict connection (OUTBOUND_TLS_CA_FILE). */
  extraCa?: string[];
  log: Logger;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The envelope's recipients grouped by their domain, in the order each domain first appears. */
function byDomain(recipients: readonly string[]): string[][] {
  const grouped = new Map<string, string[]>();
  for (const to of recipients) {
    const d = domainOf(to);
    grouped.set(d, [...(grouped.get(d) ?? []), to]);
  }
  return [...grouped.values()];
}

/** A DNS lookup of delivery: a resolver failure (SERVFAIL, timeout) may pass, so it defers; its errno text is for the log only. */
async function lookup<T>(work: () => Promise<T>, log: Logger, domain: string, host: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    log.warn({ domain, host, detail: (err as Error).message }, 'MX delivery: DNS lookup failed');
    throw new TemporaryMailError(`the DNS lookup for ${domain} failed`);
  }
}

const SOURCE_FAILED = 'the source address of the delivery could not be chosen';

/**
 * A step of pacing (a site's permit, a source address) that may put the email off: HeldMailError
 * passes; any other failure (the database away) defers the email with `reason`, the detail logged.
 */
async function pacingStep<T>(step: () => Promise<T>, log: Logger, reason: string, where: Record<string, unknown>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof HeldMailError) throw err;
    log.warn({ ...where, detail: (err as Error).message }, `MX delivery: ${reason}`);
    throw new TemporaryMailError(reason);
  }
}

/** Whether a temporary refusal asked the whole site to slow down (it then is, for every worker). */
async function slowedDown(shaper: SiteShaper, site: Site, source: Source, err: TemporaryMailError, log: Logger): Promise<boolean> {
  if (!asksToSlowDown(err.response)) return false;
  await shaper.refused(site, source.address, err.response).catch((e: unknown) => log.warn({ site: site.name, detail: (e as Error).message }, 'MX delivery: slow-down not recorded'));
  return true;
}

/**
 * Delivers straight to the recipient domain's MX hosts (lowest preference first; the domain's
 * own address when it has no MX, as RFC 5321 says), through the service's one DNS resolver.
 * Every address is checked against the webhook address rules before any connection
 * (lib/mail-hosts.ts), and nodemailer is handed the checked IP, so it never resolves the name
 * again. STARTTLS is used when offered, without certificate checks, unless the domain has an
 * MTA-STS policy (mta-sts.ts): then only the hosts it names, over TLS with a valid certificate.
 * Each email waits for the pace of its domain's site (site-shaper.ts), and a site that asks to
 * slow down is slowed for every worker.
 */
export function mxTransport(dns: Dns, opts: MxOptions): MailTransport {
  const { allowPrivate, log, shaper, sources } = opts;
  const mxOf = new TtlCache<string[]>();
  const addressesOf = new TtlCache<CheckedAddresses>();
  const pools = mxPools(opts);

  /**
   * One SMTP transaction to the domain of `to`. `paced`: it waits for its site's permit (the
   * email's own recipient); copies to other domains (cc, bcc) go with their email unpaced.
   */
  async function deliver(to: string, use: (transporter: Transporter) => Promise<Info>, source: Source, paced: boolean): Promise<Info> {
    const domain = domainOf(to);
    const found = await mxOf.get(domain, async () => mailHosts(await lookup(() => dns.mx(domain), log, domain, domain), domain));
    const site = shaper.siteOf(found);
    if (paced) await pacingStep(() => shaper.admit(site, source.address), log, 'the delivery pace of the destination could not be read', { site: site.name });
    const policy = opts.sts ? await opts.sts.policyOf(domain) : null;
    let tls: TlsPolicyUsed = 'none';
    const report = tlsReporter(opts.tlsSessions, domain, policy, (used) => (tls = used));
    const hosts = hostsUnderPolicy(found, policy, domain, site, log, report);
    let last: Error | null = null;
    let refused = false;
    for (const host of hosts) {
      let checked;
      try {
        checked = await addressesOf.get(host, () => lookup(() => mailHostAddresses(dns, host, allowPrivate), log, domain, host));
      } catch (err) {
        last = err as Error;
        continue;
      }
      if (checked.refused.length) {
        refused = true;
        log.warn({ domain, mx: host, refused: checked.refused }, 'MX delivery: address refused (MX_ALLOW_PRIVATE is off)');
      }
      if (!checked.usable.length) continue;
      const address = checked.usable[0];
      try {
        const dane = await daneOf(opts.dane, domain, host, log);
        const info = await shaper.within(site, source.address, () => sendUnderPolicy(pools, { address, host, site, source, dane }, use, policy, log, report));
        return { ...info, tls_policy: tls };
      } catch (err) {
        last = classify(err, log, { domain, mx: host, address });
        // A refusal is the domain's answer, and a slow-down the site's: another MX would say the same.
        if (last instanceof PermanentMailError) throw last;
        if (last instanceof TemporaryMailError && (await slowedDown(shaper, site, source, last, log))) throw last;
      }
    }
    if (last) throw last;
    // Permanent, like a domain with no mail host at all: the domain's own DNS routes its mail to
    // addresses this service never connects to, so no retry can succeed until that DNS changes,
    // and each retry would only repeat the refusal. The reason names neither host nor address.
    throw new PermanentMailError(refused ? `no permitted mail host for ${domain}` : `no mail host for ${domain}`);
  }
  return {
    async send(mail) {
      // The service's own mail (confirmations, resets) goes unpaced: it is little, and people wait for it.
      const info = await deliver(mail.to, async (t) => (await t.sendMail(message(mail))) as Info, await pacingStep(() => sources.pick(null), log, SOURCE_FAILED, {}), false);
      return { id: info.messageId, response: info.response ?? '' };
    },
    async sendRaw(mail: RawMail) {
      // One SMTP transaction per recipient domain; the first recipient's answer is the email's outcome.
      let first: SendInfo | null = null;
      const source = await pacingStep(() => sources.pick(mail.pool ?? null), log, SOURCE_FAILED, { pool: mail.pool });
      for (const rcpts of byDomain(mail.envelope.to)) {
        const isPrimary = rcpts.includes(mail.envelope.to[0]);
        try {
          const info = await deliver(rcpts[0], (t) => sendPooledRaw(t, { from: mail.envelope.from, to: rcpts }, mail.raw, mail.meta.email_id), source, isPrimary);
          if (isPrimary) first = outcome(info, mail.envelope.to[0], log);
        } catch (err) {
          if (isPrimary) throw err;
        }
      }
      return first!;
    },
  };
}
