import os from 'node:os';
import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import type { MailTransport } from '../../lib/mail.js';
import { CapturedMail } from './captured-mail.entity.js';
import { smtpTransport } from './smtp-transport.js';
import { mxTransport } from './mx-transport.js';
import { extraCaOf, MtaStsPolicies } from './mta-sts.js';
import { SiteShaper } from './site-shaper.js';
import { DeliverySiteRepository } from './delivery-site.repository.js';
import { SiteTable, type SiteOverrides } from '../../lib/shaping.js';
import { SourceAddresses } from './source-addresses.js';
import { DanePolicies } from './dane.js';
import { ValidatingResolver } from '../../lib/dnssec.js';
import { TlsSessions } from '../tls-reports/tls-session.recorder.js';
import { TlsSessionRepository } from '../tls-reports/tls-session.repository.js';
import { IpPoolRepository } from '../ip-pools/ip-pool.repository.js';
import { DEFAULT_WARMUP, type IpPools } from '../../lib/ip-pools.js';

export type { MailTransport, OutgoingMail, RawMail, SendInfo } from '../../lib/mail.js';

/**
 * The transport MAIL_TRANSPORT names: `capture` (the default), `mx`, or an smtp(s):// smarthost.
 * `log` receives the details of failures that callers only see as generic reasons.
 */
export function createMailTransport(
  config: {
    MAIL_TRANSPORT: string;
    MX_PORT: number;
    MX_ALLOW_PRIVATE?: boolean;
    MAIL_HELO_NAME?: string;
    DELIVERY_TIMEOUT_MS?: number;
    DELIVERY_CONNECTIONS_PER_HOST?: number;
    DELIVERY_SHAPING?: SiteOverrides;
    DELIVERY_SLOWDOWN_SECONDS?: number;
    IP_POOLS?: IpPools;
    DANE_RESOLVER?: string;
    IP_WARMUP_SCHEDULE?: number[];
    MTA_STS_PORT: number;
    OUTBOUND_TLS_CA_FILE?: string;
  },
  dns: Dns,
  fork: () => EntityManager,
  log: Logger,
): MailTransport {
  if (config.MAIL_TRANSPORT === 'capture') return captureTransport(fork);
  const logger = log.child({ module: 'mail' });
  if (config.MAIL_TRANSPORT === 'mx') {
    const extraCa = extraCaOf(config.OUTBOUND_TLS_CA_FILE);
    const sts = new MtaStsPolicies({
      dns,
      port: config.MTA_STS_PORT,
      extraCa,
      allowPrivate: config.MX_ALLOW_PRIVATE ?? false,
      timeoutMs: Math.min(config.DELIVERY_TIMEOUT_MS ?? 10_000, 10_000),
      log: logger,
    });
    return mxTransport(dns, {
      sts,
      extraCa,
      port: config.MX_PORT,
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
      shaper: new SiteShaper({
        table: new SiteTable(config.DELIVERY_SHAPING, config.DELIVERY_CONNECTIONS_PER_HOST),
        sites: () => new DeliverySiteRepository(fork()),
        slowdownSeconds: config.DELIVERY_SLOWDOWN_SECONDS ?? 60,
        log: logger,
      }),
      sources: new SourceAddresses({
        pools: config.IP_POOLS ?? {},
        schedule: config.IP_WARMUP_SCHEDULE ?? DEFAULT_WARMUP,
        repo: () => new IpPoolRepository(fork()),
        dns,
        helo: config.MAIL_HELO_NAME ?? os.hostname(),
        log: logger,
      }),
      tlsSessions: new TlsSessions(dns, () => new TlsSessionRepository(fork()), logger),
      ...(config.DANE_RESOLVER ? { dane: new DanePolicies(new ValidatingResolver(config.DANE_RESOLVER), config.MX_PORT) } : {}),
      allowPrivate: config.MX_ALLOW_PRIVATE ?? false,
      log: logger,
    });
  }
  return smtpTransport(config.MAIL_TRANSPORT, logger, config.MAIL_HELO_NAME, config.DELIVERY_TIMEOUT_MS, config.DELIVERY_CONNECTIONS_PER_HOST);
}

export function captureTransport(fork: () => EntityManager): MailTransport {
  const store = async (fields: RequiredEntityData<CapturedMail>) => {
    const em = fork();
    const row = em.create(CapturedMail, { created_at: new Date(), ...fields });
    await em.flush();
    return { id: row.id, response: 'captured' };
  };
  return {
    send: (mail) =>
      store({
        to: mail.to,
        from: mail.from,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? null,
        kind: mail.kind ?? 'system',
        account_id: mail.account_id ?? null,
        domain_id: mail.domain_id ?? null,
      }),
    sendRaw: (mail) =>
      store({
        to: mail.meta.to,
        from: mail.meta.from,
        subject: mail.meta.subject,
        text: mail.meta.text,
        html: mail.meta.html,
        kind: mail.meta.kind ?? 'email',
        email_id: mail.meta.email_id || null,
        raw: mail.raw.toString('utf8'),
      }),
  };
}
