import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Dns } from '../../lib/dns.js';
import { CapturedMail } from './captured-mail.entity.js';
import { mxTransport, smtpTransport } from './smtp-transport.js';

export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  kind?: string;
}

/** A finished MIME message (signed), with its SMTP envelope. `envelope.to[0]` is the email's own recipient. */
export interface RawMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  /** For the capture transport: what the stored copy is listed by. */
  meta: { email_id: string; to: string; from: string; subject: string; text: string; html: string | null };
}

export interface SendInfo {
  id: string;
  /** The server's final answer (`250 2.0.0 queued as ...`), or `captured`. */
  response: string;
}

/**
 * How the service hands over mail: mail it writes itself (identity confirmations, invites, alerts)
 * through `send`, customers' messages, already built and signed, through `sendRaw`.
 * `capture` keeps the message in the database, readable by operators and through the email log,
 * so a fresh install works offline; `mx` and smtp:// deliver it for real (smtp-transport.ts).
 * Failures are PermanentMailError (5xx, give up) or TemporaryMailError (retry later).
 */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<SendInfo>;
  sendRaw(mail: RawMail): Promise<SendInfo>;
}

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
  },
  dns: Dns,
  fork: () => EntityManager,
  log: Logger,
): MailTransport {
  if (config.MAIL_TRANSPORT === 'capture') return captureTransport(fork);
  const logger = log.child({ module: 'mail' });
  if (config.MAIL_TRANSPORT === 'mx') {
    return mxTransport(dns, {
      port: config.MX_PORT,
      helo: config.MAIL_HELO_NAME,
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
      connections: config.DELIVERY_CONNECTIONS_PER_HOST,
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
      store({ to: mail.to, from: mail.from, subject: mail.subject, text: mail.text, html: mail.html ?? null, kind: mail.kind ?? 'system' }),
    sendRaw: (mail) =>
      store({
        to: mail.meta.to,
        from: mail.meta.from,
        subject: mail.meta.subject,
        text: mail.meta.text,
        html: mail.meta.html,
        kind: 'email',
        email_id: mail.meta.email_id,
        raw: mail.raw.toString('utf8'),
      }),
  };
}
