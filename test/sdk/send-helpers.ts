import { EmailParams, Recipient, Sender, type MailerSend } from 'mailersend';
import { parseMime } from '../tracking/helpers.js';
import { settled, sql, until } from '../sending/helpers.js';
import type { TestServer } from '../support/server.js';

export { settled, sql, until };

let seq = 0;
/** A recipient address unique to this run. */
export const addr = (tag = 'sdk') => `${tag}${++seq}-${Date.now().toString(36)}@example.net`;

/** The smallest valid send from `domain`, built the way SDK users build it. */
export function simple(domain: { name: string }, to = addr()): EmailParams {
  return new EmailParams()
    .setFrom(new Sender(`hello@${domain.name}`, 'Hello'))
    .setTo([new Recipient(to, 'Someone')])
    .setSubject('Hi')
    .setText('Plain')
    .setHtml('<p>HTML</p>');
}

/** Sends through the SDK; answers the x-message-id after checking the 202. */
export async function sent(ms: MailerSend, params: EmailParams): Promise<string> {
  const res = await ms.email.send(params);
  if (res.statusCode !== 202) throw new Error(`send answered ${res.statusCode}`);
  return res.headers['x-message-id'] as string;
}

export interface Captured {
  emailId: string;
  to: string;
  status: string;
  subject: string;
  raw: string;
  headers: string;
  html: string | null;
  text: string | null;
}

/** Every email of a message once settled, each with the MIME message the capture transport kept. */
export async function captured(s: TestServer, messageId: string): Promise<Captured[]> {
  const emails = await settled(s, messageId);
  const out: Captured[] = [];
  for (const e of emails) {
    const raw = await until(async () => {
      const [row] = await sql<{ raw: string | null }>(s, 'select raw from captured_mails where email_id = ?', [e.id]);
      return row?.raw;
    }, 10_000, `the captured mail of ${e.id}`);
    out.push({ emailId: e.id, to: e.to_email, status: e.status, subject: e.subject, raw, ...parseMime(raw) });
  }
  return out;
}
