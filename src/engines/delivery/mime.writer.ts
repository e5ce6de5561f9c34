import type { Transform } from 'node:stream';
import { Encoder as Base64Encoder } from 'nodemailer/lib/base64/index.js';
import type MimeNode from 'nodemailer/lib/mime-node/index.js';
import { Encoder as QpEncoder } from 'nodemailer/lib/qp/index.js';


const CRLF = Buffer.from('\r\n');
const noop = () => undefined;

/**
 * A message nodemailer composed (its MimeNode tree), written out at once: the bytes its stream
 * transport writes with `newline: 'windows'` (MimeNode.stream, then a final line break, then CRLF
 * line ends), for a tree whose content is all in memory, as a send's is (strings and Buffers).
 *
 * nodemailer writes a tree through a pipeline of streams, with a turn of the event loop before
 * each node and each content: with many messages built side by side, every message's stream
 * objects then lived across several young-generation collections and were promoted, a large
 * share of what the worker promoted while draining (bench:drain). Here the same headers
 * (`buildHeaders`) and the same content encoders (nodemailer's quoted-printable and base64
 * Transforms, fed the content as one chunk, as their stream is) run synchronously.
 * test/sending/mime-writer.test.ts compares the two byte for byte.
 */
export function writeMime(root: MimeNode): Buffer {
  const parts: Buffer[] = [];
  writeNode(root, parts);
  // nodemailer's LastNewline: the message ends with a line break.
  const last = parts.at(-1)?.at(-1);
  if (last === 0x0d) parts.push(Buffer.from('\n'));
  else if (last !== 0x0a) parts.push(CRLF);
  return crlf(Buffer.concat(parts));
}

/** MimeNode.stream for in-memory content: headers, the encoded content, then the children between boundaries. */
function writeNode(node: MimeNode, parts: Buffer[]): void {
  const encoding = node.getTransferEncoding();
  parts.push(Buffer.from(`${node.buildHeaders()}\r\n\r\n`));
  const content = node.content;
  if (content) {
    if (typeof content !== 'string' && !Buffer.isBuffer(content)) throw new Error('writeMime: a MIME part whose content is not in memory');
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    if (encoding === 'base64') encodeInto(new Base64Encoder(), bytes, parts);
    // Outside text a lone CR or LF is data, which the encoder keeps from becoming a line break.
    else if (encoding === 'quoted-printable') encodeInto(new QpEncoder({ binary: !/^text\//i.test(node.contentType ?? '') }), bytes, parts);
    else parts.push(bytes);
  }
  // `multipart` and `boundary` are set by buildHeaders.
  if (!node.multipart) return;
  node.childNodes.forEach((child, i) => {
    parts.push(Buffer.from(`${i ? '\r\n' : ''}--${node.boundary}\r\n`));
    writeNode(child, parts);
  });
  parts.push(Buffer.from(`\r\n--${node.boundary}--\r\n`));
}

/** Runs one of nodemailer's encoder Transforms over its whole input now, collecting what it pushes. */
function encodeInto(encoder: Transform, input: Buffer, parts: Buffer[]): void {
  encoder.push = (chunk: Buffer | string | null) => {
    if (chunk !== null) parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
    return true;
  };
  // A stream hands a Buffer chunk over with the encoding 'buffer', which Node's types leave out.
  encoder._transform(input, 'buffer' as BufferEncoding, noop);
  encoder._flush?.(noop);
}

/** nodemailer's LeWindows: every LF not preceded by CR becomes CRLF. */
function crlf(raw: Buffer): Buffer {
  let lf = raw.indexOf(0x0a);
  while (lf > 0 && raw[lf - 1] === 0x0d) lf = raw.indexOf(0x0a, lf + 1);
  if (lf < 0) return raw;
  const out: Buffer[] = [];
  let from = 0;
  for (; lf >= 0; lf = raw.indexOf(0x0a, lf + 1)) {
    if (lf > 0 && raw[lf - 1] === 0x0d) continue;
    out.push(raw.subarray(from, lf), CRLF);
    from = lf + 1;
  }
  out.push(raw.subarray(from));
  return Buffer.concat(out);
}
