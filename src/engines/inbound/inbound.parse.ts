import type { ParsedMail } from 'mailparser';
import type { Config } from '../../config/index.js';
import { mailParsePool, parseMailInPool, type MailRefusal } from '../../lib/mail-in-pool.js';
import { poolOf, type UntrustedPool } from '../../lib/untrusted-pool.js';

type ParseSettings = Pick<
  Config,
  'INBOUND_MAX_MIME_PARTS' | 'INBOUND_MAX_ATTACHMENTS' | 'INBOUND_MAX_DECODED_BYTES' | 'UNTRUSTED_PARSE_THREADS' | 'UNTRUSTED_PARSE_TIMEOUT_MS'
>;

/**
 * An inbound thread's heap: the text and html of a message of SMTP_MAX_INBOUND_BYTES, and
 * mailparser's html-to-text of an html-only one, fit with room (attachments' bytes live outside
 * the heap). A message that needs more ends its thread and is refused.
 */
const THREAD_HEAP_MB = 512;
/**
 * The longest html an html-only message's text is made from: html-to-text's memory grows many
 * times faster than the html on markup-dense input, and a thread that nears its heap limit inside
 * one allocation can end the whole process rather than itself (bench:sweep, inbound mail of 16 MB
 * of `<`). Longer html is refused before its text is made.
 */
const HTML_TO_TEXT_BYTES = 2 * 1024 * 1024;
/** Messages waiting for a thread at most; past that the sender gets a 451 and tries later. */
const QUEUE = 32;

/** The inbound pool of an app (its config), made on first use; the app's close ends it. */
function poolFor(config: ParseSettings): UntrustedPool {
  return poolOf(config, 'inbound', () =>
    mailParsePool({
      threads: config.UNTRUSTED_PARSE_THREADS,
      queue: QUEUE,
      timeoutMs: config.UNTRUSTED_PARSE_TIMEOUT_MS,
      heapMb: THREAD_HEAP_MB,
    }),
  );
}

/**
 * The MIME parse of an inbound message, off the event loop and within INBOUND_MAX_*: the mail, or
 * the reply that refuses it (too many parts or attachments, too much content, or too costly to
 * read in UNTRUSTED_PARSE_TIMEOUT_MS and the thread's heap; 451 when too many wait already).
 */
export async function parseInbound(config: ParseSettings, raw: Buffer): Promise<{ mail: ParsedMail } | { refusal: MailRefusal }> {
  const limits = { maxParts: config.INBOUND_MAX_MIME_PARTS, maxAttachments: config.INBOUND_MAX_ATTACHMENTS, maxDecodedBytes: config.INBOUND_MAX_DECODED_BYTES };
  return parseMailInPool(poolFor(config), raw, limits, { skipTextLinks: true, maxHtmlLengthToParse: HTML_TO_TEXT_BYTES });
}
