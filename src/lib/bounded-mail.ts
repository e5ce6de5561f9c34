import { Readable } from 'node:stream';
import { MailParser, type AddressObject, type MailParserData, type ParsedMail, type ParserOptions } from 'mailparser';

/** What one parse of an untrusted message may cost, counted while it is read. */
export interface MailLimits {
  /** Nodes of the MIME tree (multipart containers included); mailparser stops at one past it. */
  maxParts: number;
  /** Parts that come out as attachments. */
  maxAttachments: number;
  /** Decoded bytes of all attachments together, plus the characters of the text and html. */
  maxDecodedBytes: number;
}

export type MailLimitReason = 'parts' | 'structure' | 'attachments' | 'decoded_bytes' | 'html';

export class MailLimitError extends Error {
  readonly reason: MailLimitReason;
  constructor(reason: MailLimitReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The message is fed in pieces, so a limit reached early stops the parse where it is. */
const FEED_CHUNK = 64 * 1024;

/** mailsplit's own message for its child-node limit (maxChildNodes). */
const TOO_MANY_NODES = 'Max allowed child nodes exceeded';

const HEADER_FIELDS = { subject: 'subject', references: 'references', from: 'from', to: 'to', cc: 'cc', 'reply-to': 'replyTo', 'in-reply-to': 'inReplyTo', 'message-id': 'messageId' } as const;

/**
 * mailparser's simpleParser, with every part counted and every decoded byte sized as it streams,
 * so a message of many parts or much content is refused (MailLimitError) before it is all
 * expanded. The result is plain data (structured-clonable, for a worker thread): no streams,
 * no functions, cid: links left as they are, no text-to-html conversion.
 */
export function parseMailBounded(raw: Buffer, limits: MailLimits, options: ParserOptions = {}): Promise<ParsedMail> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ ...options, skipTextToHtml: true, skipImageLinks: true, maxChildNodes: limits.maxParts });
    const source = Readable.from(chunksOf(raw));
    const mail: ParsedMail = { headerLines: [], attachments: [] };
    let decoded = 0;
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      parser.destroy();
      reject(err);
    };
    const count = (bytes: number) => {
      decoded += bytes;
      if (decoded > limits.maxDecodedBytes) fail(new MailLimitError('decoded_bytes', `The message decodes to more than ${limits.maxDecodedBytes} bytes.`));
    };
    parser.on('error', (err: Error) => fail(limitErrorOf(err, limits) ?? err));
    parser.on('headers', () => (mail.headerLines = parser.headerLines));
    const reader = partReader(parser, mail, limits, count, fail);
    parser.on('readable', () => reader.next());
    parser.on('end', () => {
      if (settled) return;
      settled = true;
      for (const [key, field] of Object.entries(HEADER_FIELDS)) {
        if (parser.headers.has(key)) (mail as unknown as Record<string, unknown>)[field] = parser.headers.get(key) as AddressObject | string;
      }
      resolve(mail);
    });
    source.pipe(parser);
  });
}

/**
 * mailsplit's own limits (EMAXLEN): its count of MIME nodes, and the size of a part's header
 * block (1 MB) and of a line it must hold whole. Past any of them the message is refused.
 */
function limitErrorOf(err: Error & { code?: string }, limits: MailLimits): MailLimitError | null {
  if (err.message === TOO_MANY_NODES) return new MailLimitError('parts', `The message has more than ${limits.maxParts} MIME parts.`);
  if (err.code === 'EMAXLEN') return new MailLimitError('structure', `The message has a header or line longer than it may (${err.message}).`);
  // mailparser's maxHtmlLengthToParse: the html part is longer than its text may be made from.
  if (err.message.startsWith('HTML too long for parsing')) return new MailLimitError('html', 'The message\'s html is longer than its text can be read from.');
  return null;
}

function* chunksOf(raw: Buffer): Generator<Buffer> {
  for (let at = 0; at < raw.length; at += FEED_CHUNK) yield raw.subarray(at, at + FEED_CHUNK);
}

/**
 * Takes what the parser has ready. An attachment is read to its end (and released) before the
 * next part, as simpleParser does; each chunk of it is counted as it arrives, and attachments are
 * counted as they begin.
 */
function partReader(parser: MailParser, mail: ParsedMail, limits: MailLimits, count: (bytes: number) => void, fail: (err: Error) => void) {
  let reading = false;
  let attachments = 0;
  const next = (): void => {
    if (reading) return;
    let data: MailParserData | null;
    while ((data = parser.read()) !== null) {
      if (data.type === 'text') {
        if (typeof data.text === 'string') mail.text = data.text;
        if (typeof data.html === 'string') mail.html = data.html;
        count((mail.text?.length ?? 0) + (typeof mail.html === 'string' ? mail.html.length : 0));
        continue;
      }
      if (++attachments > limits.maxAttachments) return fail(new MailLimitError('attachments', `The message has more than ${limits.maxAttachments} attachments.`));
      reading = true;
      return readAttachment(data, (content) => {
        const { filename, contentType, contentDisposition, cid, related } = data as MailParserData & { type: 'attachment' };
        mail.attachments.push({ filename, contentType, contentDisposition, cid, related, content });
        reading = false;
        next();
      }, count);
    }
  };
  return { next };
}

function readAttachment(part: MailParserData & { type: 'attachment' }, done: (content: Buffer) => void, count: (bytes: number) => void): void {
  const chunks: Buffer[] = [];
  part.content.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    count(chunk.length);
  });
  part.content.on('end', () => {
    part.release();
    done(Buffer.concat(chunks));
  });
}
