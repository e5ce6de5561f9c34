import type { EntityManager } from '@mikro-orm/postgresql';
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

/**
 * How the service hands over mail it writes itself (identity confirmations, invites, alerts).
 * `capture` keeps the message in the database, readable by operators, so a fresh install works
 * offline; `mx` and smtp:// deliver it for real (smtp-transport.ts).
 */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ id: string }>;
}

/** The transport MAIL_TRANSPORT names: `capture` (the default), `mx`, or an smtp(s):// smarthost. */
export function createMailTransport(
  config: { MAIL_TRANSPORT: string; MX_PORT: number; MAIL_HELO_NAME?: string },
  dns: Dns,
  fork: () => EntityManager,
): MailTransport {
  if (config.MAIL_TRANSPORT === 'capture') return captureTransport(fork);
  if (config.MAIL_TRANSPORT === 'mx') return mxTransport(dns, config.MX_PORT, config.MAIL_HELO_NAME);
  return smtpTransport(config.MAIL_TRANSPORT, config.MAIL_HELO_NAME);
}

export function captureTransport(fork: () => EntityManager): MailTransport {
  return {
    async send(mail) {
      const em = fork();
      const row = em.create(CapturedMail, {
        to: mail.to,
        from: mail.from,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? null,
        kind: mail.kind ?? 'system',
        created_at: new Date(),
      });
      await em.flush();
      return { id: row.id };
    },
  };
}
