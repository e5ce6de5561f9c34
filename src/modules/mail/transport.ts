import type { EntityManager } from '@mikro-orm/postgresql';
import { CapturedMail } from './captured-mail.entity.js';

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
 * The sending issue adds SMTP and MX transports behind this interface; `capture` keeps the
 * message in the database, readable by operators, so a fresh install works offline.
 */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ id: string }>;
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
