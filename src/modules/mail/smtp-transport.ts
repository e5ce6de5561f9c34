import { isIP } from 'node:net';
import os from 'node:os';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import { mailHostAddresses, mailHosts, TtlCache, type CheckedAddresses } from '../../lib/mail-hosts.js';
import { HostPools } from './host-pools.js';
import { trustedCa, type MtaStsPolicies } from './mta-sts.js';
import { mxMatches, type MtaStsPolicy } from '../../lib/mta-sts.js';
import { mtaStsOutcomes } from '../../lib/metrics.js';
import { sendPooledRaw } from './raw-send.js';
import type { MailTransport, OutgoingMail, RawMail, SendInfo } from '../../lib/mail.js';

/** An SMTP answer that will not change on retry (5xx): the job gives up instead of retrying. */
export class PermanentMailError extends Error {
  constructor(
    message: string,
    readonly response: string = message,
  ) {
    super(message);
  }
}

/** A refusal or failure that may pass later (4xx, timeouts, connection errors). */
export class TemporaryMailError extends Error {
  constructor(
    message: string,
    readonly response: string = message,
  ) {
    super(message);
  }
}

type SmtpErr = { responseCode?: number; response?: string; message?: string; code?: string };

/**
 * The reasons recorded for a failure with no SMTP answer. A socket error's text names addresses
 * and errno codes of the network the service runs in (`connect ECONNREFUSED 10.0.0.5:25`), and it
 * ends up in the email's log and activity, which the sending account reads: it gets these, the
 * server log gets the detail.
 */
export const UNREACHABLE = 'the mail server could not be reached';
export const NO_ANSWER = 'the mail server did not answer in time';

/** A server's answer (4xx/5xx) is kept as said; anything else becomes a generic temporary failure. */
function classify(err: unknown, log: Logger, where: Record<string, unknown>): Error {
  if (err instanceof PermanentMailError || err instanceof TemporaryMailError) return err;
  const e = err as SmtpErr;
  if (e.responseCode) {
    const text = e.response ?? e.message ?? String(err);
    return e.responseCode >= 500 ? new PermanentMailError(text) : new TemporaryMailError(text);
  }
  log.warn({ ...where, code: e.code, detail: e.message ?? String(err) }, 'mail server not reached');
  return new TemporaryMailError(e.code === 'ETIMEDOUT' ? NO_ANSWER : UNREACHABLE);
}

const message = (mail: OutgoingMail) => ({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });

type Info = { messageId: string; response?: string; rejected?: unknown[]; rejectedErrors?: SmtpErr[] };

/** The outcome for the first envelope recipient (the email's own `to`); cc/bcc refusals do not decide it. */
function outcome(info: Info, primary: string, log: Logger): SendInfo {
  const refused = (info.rejected ?? []).map((r) => String(r).toLowerCase());
  if (refused.includes(primary.toLowerCase())) {
    const err = info.rejectedErrors?.find((e) => String(e.message ?? '').toLowerCase().includes(primary.toLowerCase()));
    throw classify(err ?? { responseCode: 550, response: `recipient ${primary} refused` }, log, { to: primary });
  }
  return { id: info.messageId, response: info.response ?? '' };
}

/** Messages sent over one pooled connection before it is replaced (some servers cap a session). */
const MESSAGES_PER_CONNECTION = 1000;

/**
 * Relays through one smarthost, `smtp://user:pass@host:port` (or smtps://), over a pool of
 * `connections` reused connections; messages beyond them wait for a free one.
 */
export function smtpTransport(url: string, log: Logger, helo?: string, timeoutMs = 60_000, connections = 5): MailTransport {
  // Made on the first send: a role that sends no mail (the api) never loads nodemailer.
  let made: Transporter<SMTPPool.SentMessageInfo> | undefined;
  const transporter = () => (made ??= nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: connections,
    maxMessages: MESSAGES_PER_CONNECTION,
    name: helo ?? os.hostname(),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  }));
  return {
    async send(mail) {
      try {
        const info = await transporter().sendMail(message(mail));
        return { id: info.messageId, response: info.response };
      } catch (err) {
        throw classify(err, log, { transport: 'smtp' });
      }
    },
    async sendRaw(mail) {
      let info: Info;
      try {
        // Straight to the pool: the message is built and signed already (raw-send.ts).
        info = await sendPooledRaw(transporter(), mail.envelope, mail.raw, mail.meta.email_id);
      } catch (err) {
        throw classify(err, log, { transport: 'smtp' });
      }
      return outcome(info, mail.envelope.to[0], log);
    },
  };
}

export interface MxOptions {
  port: number;
  helo?: string;
  timeoutMs?: number;
  /** Pooled connections per MX address. */
  connections?: number;
  /** MX_ALLOW_PRIVATE: connect to loopback, private and reserved addresses too. */
  allowPrivate: boolean;
  /** Recipient domains' MTA-STS policies; none read when unset. */
  sts?: MtaStsPolicies;
  /** Certificate authorities trusted beside the system's for a strict connection (OUTBOUND_TLS_CA_FILE). */
  extraCa?: string[];
  log: Logger;
}

/**
 * Pooled connections per MX address. TLS names the MX host (SNI); an opportunistic pool checks no
 * certificate, as MX delivery without a policy is opportunistic; a strict one (a domain's MTA-STS
 * policy) requires STARTTLS and a certificate valid for the host.
 */
function mxPools({ port, helo, timeoutMs = 60_000, connections = 5, extraCa = [] }: MxOptions): HostPools {
  return new HostPools((address, host, strict) =>
    nodemailer.createTransport({
      host: address,
      port,
      pool: true,
      maxConnections: connections,
      maxMessages: MESSAGES_PER_CONNECTION,
      name: helo ?? os.hostname(),
      requireTLS: strict,
      tls: {
        rejectUnauthorized: strict,
        ...(strict ? { ca: trustedCa(extraCa) } : {}),
        ...(isIP(host) ? {} : { servername: host }),
      },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    }),
  );
}

/** The reasons recorded when a domain's MTA-STS policy in `enforce` mode stops a delivery (it is retried). */
export const STS_NO_MX = "none of the domain's mail hosts is one its MTA-STS policy names";
export const STS_NO_TLS = "the domain's MTA-STS policy requires TLS with a valid certificate, which its mail host did not offer";

/** A failure of STARTTLS or of the certificate check, not an answer of the server. */
function tlsFailure(err: unknown): boolean {
  const e = err as SmtpErr;
  return !e.responseCode && (e.code === 'ETLS' || /certificate|self[- ]signed|altname|\bTLS\b|\bSSL\b|STARTTLS/i.test(e.message ?? ''));
}

/** The MX hosts a delivery may use under the domain's policy: those it names when it enforces (none: deferred). */
function hostsUnderPolicy(hosts: string[], policy: MtaStsPolicy | null, domain: string, log: Logger): string[] {
  if (!policy || policy.mode === 'none') return hosts;
  const named = hosts.filter((h) => mxMatches(policy, h));
  if (named.length === hosts.length) return hosts;
  mtaStsOutcomes.inc({ mode: policy.mode, result: 'mx_mismatch' });
  log.warn({ domain, mode: policy.mode, hosts, named }, 'MTA-STS: MX hosts the policy does not name');
  if (policy.mode === 'testing') return hosts;
  if (!named.length) throw new TemporaryMailError(STS_NO_MX);
  return named;
}

/**
 * One MX host under the domain's policy: without one, opportunistic TLS; under `enforce`, TLS
 * with a certificate valid for the host or nothing (retried later); under `testing`, checked,
 * counted and logged, then sent as without a policy (RFC 8461 section 5).
 */
async function sendUnderPolicy<T>(pools: HostPools, address: string, host: string, use: (t: Transporter) => Promise<T>, policy: MtaStsPolicy | null, log: Logger): Promise<T> {
  const mode = policy?.mode ?? 'none';
  if (mode === 'none') return pools.send(address, host, use);
  try {
    const sent = await pools.send(address, host, use, true);
    mtaStsOutcomes.inc({ mode, result: 'ok' });
    return sent;
  } catch (err) {
    if (!tlsFailure(err)) throw err;
    mtaStsOutcomes.inc({ mode, result: 'tls_failed' });
    log.warn({ mx: host, mode, detail: (err as Error).message }, 'MTA-STS: no TLS with a valid certificate');
    if (mode === 'enforce') throw new TemporaryMailError(STS_NO_TLS);
    return pools.send(address, host, use);
  }
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

/**
 * Delivers straight to the recipient domain's MX hosts (lowest preference first; the domain's
 * own address when it has no MX, as RFC 5321 says), through the service's one DNS resolver.
 * Every address is checked against the webhook address rules before any connection
 * (lib/mail-hosts.ts), and nodemailer is handed the checked IP, so it never resolves the name
 * again. STARTTLS is used when offered, without certificate checks, unless the domain has an
 * MTA-STS policy (mta-sts.ts): then only the hosts it names, over TLS with a valid certificate.
 */
export function mxTransport(dns: Dns, opts: MxOptions): MailTransport {
  const { allowPrivate, log } = opts;
  const mxOf = new TtlCache<string[]>();
  const addressesOf = new TtlCache<CheckedAddresses>();
  const pools = mxPools(opts);

  async function lookup<T>(work: () => Promise<T>, domain: string, host: string): Promise<T> {
    try {
      return await work();
    } catch (err) {
      // A resolver failure (SERVFAIL, timeout) may pass; its errno text is for the log only.
      log.warn({ domain, host, detail: (err as Error).message }, 'MX delivery: DNS lookup failed');
      throw new TemporaryMailError(`the DNS lookup for ${domain} failed`);
    }
  }

  async function deliver(to: string, use: (transporter: Transporter) => Promise<Info>): Promise<Info> {
    const domain = domainOf(to);
    const found = await mxOf.get(domain, async () => mailHosts(await lookup(() => dns.mx(domain), domain, domain), domain));
    const policy = opts.sts ? await opts.sts.policyOf(domain) : null;
    const hosts = hostsUnderPolicy(found, policy, domain, log);
    let last: Error | null = null;
    let refused = false;
    for (const host of hosts) {
      let checked;
      try {
        checked = await addressesOf.get(host, () => lookup(() => mailHostAddresses(dns, host, allowPrivate), domain, host));
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
        return await sendUnderPolicy(pools, address, host, use, policy, log);
      } catch (err) {
        last = classify(err, log, { domain, mx: host, address });
        // A refusal is the domain's answer; another MX would say the same.
        if (last instanceof PermanentMailError) throw last;
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
      const info = await deliver(mail.to, async (t) => (await t.sendMail(message(mail))) as Info);
      return { id: info.messageId, response: info.response ?? '' };
    },
    async sendRaw(mail: RawMail) {
      // One SMTP transaction per recipient domain; the first recipient's answer is the email's outcome.
      let first: SendInfo | null = null;
      for (const rcpts of byDomain(mail.envelope.to)) {
        const isPrimary = rcpts.includes(mail.envelope.to[0]);
        try {
          const info = await deliver(rcpts[0], (t) => sendPooledRaw(t, { from: mail.envelope.from, to: rcpts }, mail.raw, mail.meta.email_id));
          if (isPrimary) first = outcome(info, mail.envelope.to[0], log);
        } catch (err) {
          if (isPrimary) throw err;
        }
      }
      return first!;
    },
  };
}
