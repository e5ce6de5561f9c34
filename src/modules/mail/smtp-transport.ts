import os from 'node:os';
import nodemailer from 'nodemailer';
import type { Dns } from '../../lib/dns.js';
import type { MailTransport, OutgoingMail } from './transport.js';

/** An SMTP answer that will not change on retry (5xx): the job gives up instead of retrying. */
export class PermanentMailError extends Error {}

function classify(err: unknown): Error {
  const code = (err as { responseCode?: number }).responseCode;
  return code && code >= 500 ? new PermanentMailError(String((err as Error).message)) : (err as Error);
}

const message = (mail: OutgoingMail) => ({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });

/** Relays through one smarthost, `smtp://user:pass@host:port` (or smtps://), over a pool. */
export function smtpTransport(url: string, helo?: string): MailTransport {
  const transporter = nodemailer.createTransport(url, { pool: true, name: helo ?? os.hostname() } as never);
  return {
    async send(mail) {
      try {
        const info = await transporter.sendMail(message(mail));
        return { id: info.messageId };
      } catch (err) {
        throw classify(err);
      }
    },
  };
}

/**
 * Delivers straight to the recipient domain's MX hosts (lowest preference first; the domain's
 * own address when it has no MX, as RFC 5321 says), through the service's one DNS resolver.
 * STARTTLS is used when offered, without certificate checks: MX delivery is opportunistic.
 */
export function mxTransport(dns: Dns, port: number, helo?: string): MailTransport {
  return {
    async send(mail) {
      const domain = mail.to.slice(mail.to.lastIndexOf('@') + 1);
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
          connectionTimeout: 30_000,
        });
        try {
          const info = await transporter.sendMail(message(mail));
          return { id: info.messageId };
        } catch (err) {
          last = classify(err);
          // A refusal is the domain's answer; another MX would say the same.
          if (last instanceof PermanentMailError) throw last;
        } finally {
          transporter.close();
        }
      }
      throw last;
    },
  };
}
