import nodemailer, { type Transporter } from 'nodemailer';
import type MimeNode from 'nodemailer/lib/mime-node/index.js';
import { dkimSign } from './dkim.js';
import { writeMime } from './mime.writer.js';
import type { Address } from '../../modules/messages/message.entity.js';

/** Everything one email's MIME message is made of, already personalized and instrumented. */
export interface MimeInput {
  messageId: string;
  from: Address;
  to: Address;
  cc: Address[];
  bcc: Address[];
  replyTo: Address | null;
  subject: string;
  html: string | null;
  text: string | null;
  attachments: { filename: string; disposition: 'inline' | 'attachment'; content_id: string | null; content: Buffer }[];
  headers: { name: string; value: string }[];
  inReplyTo: string | null;
  references: string[];
  listUnsubscribe: string | null;
  /** RFC 8058: add `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (needs an https URI). */
  oneClick: boolean;
  precedenceBulk: boolean;
  returnPath: string;
  dkim: { domainName: string; keySelector: string; privateKey: string };
}

// nodemailer composes (its Mailer and MailComposer make the MimeNode tree: addresses, encoded
// headers, parts); this transport writes the tree out at once (mime.writer.ts) instead of through
// nodemailer's stream transport. dkim.ts signs; the real transport then sends the bytes as they
// are. Made with the first message.
let composer: Transporter<{ message: Buffer }> | undefined;
const inMemory = {
  name: 'postbox-mime',
  version: '1',
  send(mail: { message: MimeNode }, done: (err: Error | null, info?: { message: Buffer }) => void) {
    let message: Buffer;
    try {
      message = writeMime(mail.message);
    } catch (err) {
      return done(err as Error);
    }
    done(null, { message });
  },
};

/** Headers the DKIM signature covers: the defaults plus RFC 8058's, which must be signed. */
const SIGNED = [
  'From', 'Sender', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'To', 'Cc', 'MIME-Version', 'Content-Type',
  'Content-Transfer-Encoding', 'In-Reply-To', 'References', 'List-Unsubscribe', 'List-Unsubscribe-Post', 'Precedence',
].join(':');

const addr = (a: Address) => (a.name ? { name: a.name, address: a.email } : a.email);

export async function buildMime(m: MimeInput): Promise<{ raw: Buffer; envelope: { from: string; to: string[] } }> {
  const headers: Record<string, string> = {};
  for (const h of m.headers) headers[h.name] = h.value;
  if (m.listUnsubscribe) {
    headers['List-Unsubscribe'] = m.listUnsubscribe;
    if (m.oneClick) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  if (m.precedenceBulk) headers['Precedence'] = 'bulk';
  const envelope = { from: m.returnPath, to: [m.to.email, ...m.cc.map((a) => a.email), ...m.bcc.map((a) => a.email)] };
  composer ??= nodemailer.createTransport(inMemory);
  const info = await composer.sendMail({
    messageId: m.messageId,
    from: addr(m.from),
    to: addr(m.to),
    // Bcc recipients are in the envelope only: no header names them.
    cc: m.cc.length ? m.cc.map(addr) : undefined,
    replyTo: m.replyTo ? addr(m.replyTo) : undefined,
    subject: m.subject,
    html: m.html ?? undefined,
    text: m.text ?? undefined,
    inReplyTo: m.inReplyTo ?? undefined,
    references: m.references.length ? m.references : undefined,
    headers,
    envelope,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentDisposition: a.disposition,
      cid: a.content_id ?? undefined,
    })),
  });
  return { raw: await dkimSign(info.message, m.dkim, SIGNED), envelope };
}
