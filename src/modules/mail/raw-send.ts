import type { Transporter } from 'nodemailer';
import MimeNode from 'nodemailer/lib/mime-node/index.js';

/** What nodemailer's pooled SMTP transport answers for a message it sent. */
export interface PooledInfo {
  messageId: string;
  response?: string;
  accepted?: unknown[];
  rejected?: unknown[];
  rejectedErrors?: { responseCode?: number; response?: string; message?: string; code?: string }[];
}

// Made with the first message.
let envelopeNode: MimeNode | undefined;

/** The part of nodemailer's transport interface (`transport.send(mail, callback)`) a pooled SMTP transport reads of a message. */
interface PoolTransport {
  send(mail: unknown, callback: (err: Error | null, info: PooledInfo) => void): void;
}

/**
 * The message's bytes as the SMTP connection reads them: it pipes whatever has a `pipe` into its
 * DATA stream, and the pool requeues a message over another connection only when the server closed
 * a reused one before any of it was read (`readableDidRead === false`). So this is all the "stream"
 * a built message needs, where a PassThrough per email cost a stream, its pipe and its unpipe on
 * every message (bench:drain; test/mail/pool-requeue.test.ts holds the requeue).
 */
class RawBody {
  readableDidRead = false;
  constructor(private readonly raw: Buffer) {}
  pipe<T extends NodeJS.WritableStream>(destination: T): T {
    this.readableDidRead = true;
    destination.end(this.raw);
    return destination;
  }
}

/**
 * Hands a finished (built and signed) message straight to the pooled SMTP transport behind a
 * nodemailer transporter, with the pool's own connection reuse, queueing, requeue on a connection
 * the server closed, and error reporting. `transporter.sendMail({ envelope, raw })` does the same
 * through the Mailer first, which per message runs its plugins, makes a MailMessage and a
 * MailComposer tree for the raw bytes and streams them through a stream pipeline: several times
 * the CPU of the SMTP exchange itself, which the worker would pay for every email (bench:drain
 * measures the worker's CPU per message). The pool reads only this of a message (nodemailer's custom-transport
 * contract: `mail.data`, `mail.message.getEnvelope()`, `messageId()`, `getHeader()`,
 * `createReadStream()`, called again when a message is requeued).
 *
 * The envelope's addresses are normalized by nodemailer's own MimeNode, as sendMail would (an
 * internationalized domain in punycode, duplicates dropped).
 */
export function sendPooledRaw(transporter: Transporter, envelope: { from: string; to: string[] }, raw: Buffer, messageId: string): Promise<PooledInfo> {
  const pool = (transporter as unknown as { transporter: PoolTransport }).transporter;
  // One node for every envelope (setEnvelope replaces the last one; read at once, synchronously):
  // a new MimeNode per email costs twice as much (test/mail/raw-envelope.test.ts holds the envelope).
  envelopeNode ??= new MimeNode();
  const { from, to } = envelopeNode.setEnvelope(envelope).getEnvelope();
  const recipients = [...to];
  const message = {
    // A copy each time: the pool adds its options (dsn) to what it gets.
    getEnvelope: () => ({ from, to: [...recipients] }),
    messageId: () => messageId,
    getHeader: (name: string) => (name.toLowerCase() === 'message-id' ? messageId : undefined),
    createReadStream: () => new RawBody(raw),
  };
  return new Promise((resolve, reject) => pool.send({ data: {}, message }, (err, info) => (err ? reject(err) : resolve(info))));
}
