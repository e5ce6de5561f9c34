import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Tlsa } from '../../lib/dane.js';
import { daneOutcomes, mtaStsOutcomes } from '../../lib/metrics.js';
import { mxMatches, type MtaStsPolicy } from '../../lib/mta-sts.js';
import type { Site } from '../../lib/shaping.js';
import type { TlsPolicyUsed } from '../../lib/mail.js';
import { tlsResultType, type SessionPolicy, type TlsResultType } from '../../lib/tls-rpt.js';
import type { TlsSessions } from '../tls-reports/tls-session.recorder.js';
import { daneConnection, DaneError, type DanePolicies } from './dane.js';
import { HostPools } from './host-pools.js';
import { trustedCa } from './mta-sts.js';
import type { SmtpErr } from './smtp-transport.js';
import { TemporaryMailError } from './smtp-transport.js';
import type { Source } from './source-addresses.js';

/**
 * The TLS policy of one MX host (docs/api-behaviour.md, "Outbound TLS"; docs/delivery.md): DANE
 * when the host has secure TLSA records, else the domain's MTA-STS policy, else opportunistic
 * STARTTLS; and the pools of connections each policy uses.
 */

/** The reasons recorded when a domain's MTA-STS policy in `enforce` mode stops a delivery (it is retried). */
export const STS_NO_MX = "none of the domain's mail hosts is one its MTA-STS policy names";
export const STS_NO_TLS = "the domain's MTA-STS policy requires TLS with a valid certificate, which its mail host did not offer";
/** The reason recorded when no MX host satisfied the domain's DANE records (it is retried). */
export const DANE_FAILED = "the mail host's DANE (TLSA) records require TLS with a certificate they match, which it did not present";

/** One MX host's checked address, the site it belongs to, where the connection leaves from, and its DANE records if any. */
export interface MxAddress {
  address: string;
  host: string;
  site: Site;
  source: Source;
  dane?: Tlsa[];
}

export interface PoolOptions {
  port: number;
  timeoutMs?: number;
  /** Certificate authorities trusted beside the system's for a strict connection (OUTBOUND_TLS_CA_FILE). */
  extraCa?: string[];
  log: Logger;
}

/**
 * Pooled connections per MX address, sized by its site's limits. TLS names the MX host (SNI); an
 * opportunistic pool checks no certificate, as MX delivery without a policy is opportunistic; a
 * strict one (a domain's MTA-STS policy) requires STARTTLS and a certificate valid for the host;
 * a DANE one makes each connection itself (dane.ts) and uses it only once its certificate matched.
 */
export function mxPools({ port, timeoutMs = 60_000, extraCa = [], log }: PoolOptions): HostPools {
  return new HostPools(({ address, host, strict, limits, source, dane }) =>
    nodemailer.createTransport({
      host: address,
      port,
      pool: true,
      maxConnections: limits.connections,
      maxMessages: limits.messages_per_connection,
      name: source.ehlo,
      ...(source.address ? { localAddress: source.address } : {}),
      ...(dane
        ? {
            getSocket: (_options: unknown, callback: (err: Error | null, socket?: { connection: unknown; secured: boolean }) => void) =>
              void daneConnection({ address, port, host, localAddress: source.address || undefined, ehlo: source.ehlo, requirement: { records: dane }, timeoutMs }, log).then(
                (connection) => callback(null, { connection, secured: true }),
                (err: Error) => callback(err),
              ),
          }
        : {}),
      requireTLS: strict && !dane,
      tls: {
        rejectUnauthorized: strict,
        ...(strict ? { ca: trustedCa(extraCa) } : {}),
        ...(isIP(host) ? {} : { servername: host }),
      },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    } as Parameters<typeof nodemailer.createTransport>[0]),
  );
}

/** A failure of STARTTLS or of the certificate check, not an answer of the server. */
function tlsFailure(err: unknown): boolean {
  const e = err as SmtpErr;
  return !e.responseCode && (e.code === 'ETLS' || /certificate|self[- ]signed|altname|\bTLS\b|\bSSL\b|STARTTLS/i.test(e.message ?? ''));
}

const daneFailure = (err: unknown) => (err as { code?: string }).code === 'EDANE' || err instanceof DaneError;

/** A TLS session's outcome for the recipient domain's TLS report: per MX host, null for success. */
export type TlsReport = (host: string, result: TlsResultType | null, under?: SessionPolicy) => void;

const USED: Record<SessionPolicy['type'], TlsPolicyUsed> = { tlsa: 'dane', sts: 'mta-sts', 'no-policy-found': 'none' };

/**
 * The domain's TLS sessions, counted under the policy they were made under when it asks for
 * reports (tls-session.recorder.ts); `used` hears the policy of each session that succeeded.
 */
export function tlsReporter(sessions: TlsSessions | undefined, domain: string, policy: MtaStsPolicy | null, used: (p: TlsPolicyUsed) => void): TlsReport {
  const sts: SessionPolicy = policy && policy.mode !== 'none' ? { type: 'sts', policy } : { type: 'no-policy-found' };
  return (host, result, under = sts) => {
    if (!result) used(USED[under.type]);
    sessions?.note(domain, under, host, result);
  };
}

/** The MX hosts a delivery may use under the domain's policy: those it names when it enforces (none: deferred). */
export function hostsUnderPolicy(hosts: string[], policy: MtaStsPolicy | null, domain: string, site: Site, log: Logger, report: TlsReport): string[] {
  if (!policy || policy.mode === 'none') return hosts;
  const named = hosts.filter((h) => mxMatches(policy, h));
  if (named.length === hosts.length) return hosts;
  for (const h of hosts) if (!named.includes(h)) report(h, 'validation-failure');
  mtaStsOutcomes.inc({ mode: policy.mode, result: 'mx_mismatch', site: site.label });
  log.warn({ domain, mode: policy.mode, hosts, named }, 'MTA-STS: MX hosts the policy does not name');
  if (policy.mode === 'testing') return hosts;
  if (!named.length) throw new TemporaryMailError(STS_NO_MX);
  return named;
}

/** The host's DANE records (secure TLSA answers), or none; a bogus answer or a resolver away defers. */
export async function daneOf(dane: DanePolicies | undefined, domain: string, host: string, log: Logger): Promise<Tlsa[] | undefined> {
  if (!dane) return undefined;
  try {
    return (await dane.requirementOf(domain, host))?.records;
  } catch (err) {
    log.warn({ domain, mx: host, detail: (err as Error).message }, 'DANE: the TLSA records could not be had');
    throw new TemporaryMailError(err instanceof DaneError ? DANE_FAILED : 'the DNSSEC-validating resolver could not be asked');
  }
}

/** One MX host under DANE: the connection verified against its records, or nothing (the next host, or a deferral). */
async function sendUnderDane<T>(pools: HostPools, to: MxAddress, use: (t: Transporter) => Promise<T>, report: TlsReport): Promise<T> {
  const under: SessionPolicy = { type: 'tlsa', records: to.dane!.map((t) => `${t.usage} ${t.selector} ${t.mtype} ${t.data.toString('hex')}`) };
  try {
    const sent = await pools.send(to, use, true);
    daneOutcomes.inc({ result: 'ok', site: to.site.label });
    report(to.host, null, under);
    return sent;
  } catch (err) {
    if (!daneFailure(err)) throw err;
    daneOutcomes.inc({ result: 'failed', site: to.site.label });
    report(to.host, tlsResultType(err as SmtpErr), under);
    throw new TemporaryMailError(DANE_FAILED);
  }
}

/**
 * One MX host under its policy: DANE when it has records (RFC 7672 takes precedence over
 * MTA-STS); without a policy, opportunistic TLS; under `enforce`, TLS with a certificate valid
 * for the host or nothing (retried later); under `testing`, checked, counted and logged, then sent
 * as without a policy (RFC 8461 section 5).
 */
export async function sendUnderPolicy<T>(pools: HostPools, to: MxAddress, use: (t: Transporter) => Promise<T>, policy: MtaStsPolicy | null, log: Logger, report: TlsReport): Promise<T> {
  if (to.dane) return sendUnderDane(pools, to, use, report);
  const { host } = to;
  const mode = policy?.mode ?? 'none';
  if (mode === 'none') {
    const sent = await pools.send(to, use);
    report(host, null);
    return sent;
  }
  try {
    const sent = await pools.send(to, use, true);
    mtaStsOutcomes.inc({ mode, result: 'ok', site: to.site.label });
    report(host, null);
    return sent;
  } catch (err) {
    if (!tlsFailure(err)) throw err;
    mtaStsOutcomes.inc({ mode, result: 'tls_failed', site: to.site.label });
    report(host, tlsResultType(err as SmtpErr));
    log.warn({ mx: host, mode, detail: (err as Error).message }, 'MTA-STS: no TLS with a valid certificate');
    if (mode === 'enforce') throw new TemporaryMailError(STS_NO_TLS);
    return pools.send(to, use);
  }
}
