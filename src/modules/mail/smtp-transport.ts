import os from 'node:os';
import nodemailer from 'nodemailer';
import type { Dns } from '../../lib/dns.js';
import type { MailTransport, OutgoingMail, RawMail, SendInfo } from './transport.js';

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

function classify(err: unknown): Error {
  const e = err as SmtpErr;
  const text = e.response ?? e.message ?? String(err);
  return e.responseCode && e.responseCode >= 500 ? new PermanentMailError(text) : new TemporaryMailError(text);
}

const message = (mail: OutgoingMail) => ({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });

type Info = { messageId: string; response?: string; rejected?: unknown[]; rejectedErrors?: SmtpErr[] };

/** The outcome for the first envelope recipient (the email's own `to`); cc/bcc refusals do not decide it. */
function outcome(info: Info, primary: string): SendInfo {
  const refused = (info.rejected ?? []).map((r) => String(r).toLowerCase());
  if (refused.includes(primary.toLowerCase())) {
    const err = info.rejectedErrors?.find((e) => String(e.message ?? '').toLowerCase().includes(primary.toLowerCase()));
    throw classify(err ?? { responseCode: 550, response: `recipient ${primary} refused` });
  }
  return { id: info.messageId, response: info.response ?? '' };
}

/** Relays through one smarthost, `smtp://user:pass@host:port` (or smtps://), over a pool. */
export function smtpTransport(url: string, helo?: string, timeoutMs = 60_000): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    name: helo ?? os.hostname(),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as never);
  return {
    async send(mail) {
      try {
        const info = await transporter.sendMail(message(mail));
        return { id: info.messageId, response: info.response };
      } catch (err) {
        throw classify(err);
      }
    },
    async sendRaw(mail) {
      let info: Info;
      try {
        info = (await transporter.sendMail({ envelope: mail.envelope, raw: mail.raw })) as Info;
      } catch (err) {
        throw classify(err);
      }
      return outcome(info, mail.envelope.to[0]);
    },
  };
}

/**
 * Delivers straight to the recipient domain's MX hosts (lowest preference first; the domain's
 * own address when it has no MX, as RFC 5321 says), through the service's one DNS resolver.
 * STARTTLS is used when offered, without certificate checks: MX delivery is opportunistic.
 */
export function mxTransport(dns: Dns, port: number, helo?: string, timeoutMs = 60_000): MailTransport {
  async function deliver(to: string, payload: Record<string, unknown>): Promise<Info> {
    const domain = to.slice(to.lastIndexOf('@') + 1);
    const mx = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority).map((r) => r.exchange);
    const hosts = mx.length ? mx : [domain];
    let last: Error = new PermanentMailError(`no mail host for ${domain}`);
    for (const host of hosts) {
      const addresses = await dns.a(host);
      if (!addresses.length) continue;
      const transporter = nodemailer.createTransport({
        host: addresses[0],
        port,
        name: helo ?? os.hostname(),
        tls: { rejectUnauthorized: false, servername: host },
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      });
      try {
        return (await transporter.sendMail(payload)) as Info;
      } catch (err) {
        last = classify(err);
        // A refusal is the domain's answer; another MX would say the same.
        if (last instanceof PermanentMailError) throw last;
      } finally {
        transporter.close();
      }
    }
    throw last;
  }
  return {
    async send(mail) {
      const info = await deliver(mail.to, message(mail));
      return { id: info.messageId, response: info.response ?? '' };
    },
    async sendRaw(mail: RawMail) {
      // One SMTP transaction per recipient domain; the first recipient's answer is the email's outcome.
      const byDomain = new Map<string, string[]>();
      for (const to of mail.envelope.to) {
        const d = to.slice(to.lastIndexOf('@') + 1).toLowerCase();
        byDomain.set(d, [...(byDomain.get(d) ?? []), to]);
      }
      let first: SendInfo | null = null;
      for (const [, rcpts] of byDomain) {
        const isPrimary = rcpts.includes(mail.envelope.to[0]);
        try {
          const info = await deliver(rcpts[0], { envelope: { from: mail.envelope.from, to: rcpts }, raw: mail.raw });
          if (isPrimary) first = outcome(info, mail.envelope.to[0]);
        } catch (err) {
          if (isPrimary) throw err;
        }
      }
      return first!;
    },
  };
}
