import os from 'node:os';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Logger } from 'pino';
import { sendPooledRaw } from './raw-send.js';
import type { MailTransport, OutgoingMail, SendInfo, TlsPolicyUsed } from '../../lib/mail.js';

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

export type SmtpErr = { responseCode?: number; response?: string; message?: string; code?: string };

/**
 * The reasons recorded for a failure with no SMTP answer. A socket error's text names addresses
 * and errno codes of the network the service runs in (`connect ECONNREFUSED 10.0.0.5:25`), and it
 * ends up in the email's log and activity, which the sending account reads: it gets these, the
 * server log gets the detail.
 */
export const UNREACHABLE = 'the mail server could not be reached';
export const NO_ANSWER = 'the mail server did not answer in time';

/** A server's answer (4xx/5xx) is kept as said; anything else becomes a generic temporary failure. */
export function classify(err: unknown, log: Logger, where: Record<string, unknown>): Error {
  if (err instanceof PermanentMailError || err instanceof TemporaryMailError) return err;
  const e = err as SmtpErr;
  if (e.responseCode) {
    const text = e.response ?? e.message ?? String(err);
    return e.responseCode >= 500 ? new PermanentMailError(text) : new TemporaryMailError(text);
  }
  log.warn({ ...where, code: e.code, detail: e.message ?? String(err) }, 'mail server not reached');
  return new TemporaryMailError(e.code === 'ETIMEDOUT' ? NO_ANSWER : UNREACHABLE);
}

export const message = (mail: OutgoingMail) => ({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });

export type Info = {
  tls_policy?: TlsPolicyUsed; messageId: string; response?: string; rejected?: unknown[]; rejectedErrors?: SmtpErr[] };

/** The outcome for the first envelope recipient (the email's own `to`); cc/bcc refusals do not decide it. */
export function outcome(info: Info, primary: string, log: Logger): SendInfo {
  const refused = (info.rejected ?? []).map((r) => String(r).toLowerCase());
  if (refused.includes(primary.toLowerCase())) {
    const err = info.rejectedErrors?.find((e) => String(e.message ?? '').toLowerCase().includes(primary.toLowerCase()));
    throw classify(err ?? { responseCode: 550, response: `recipient ${primary} refused` }, log, { to: primary });
  }
  return { id: info.messageId, response: info.response ?? '', ...(info.tls_policy ? { tls_policy: info.tls_policy } : {}) };
}

/** Messages sent over one pooled connection before it is replaced (some servers cap a session). */
export const MESSAGES_PER_CONNECTION = 1000;

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
