import type { ParsedMail, ParserOptions } from 'mailparser';
import type { MailLimitReason, MailLimits } from './bounded-mail.js';
import type { BoundedParse, BoundedParseInput } from './mail-parse.thread.js';
import { PoolRefusal, threadFile, UntrustedPool, type PoolLimits } from './untrusted-pool.js';

/**
 * Mail parsed in a pool (lib/untrusted-pool.ts), and what the SMTP listener answers for mail it
 * will not take because reading it costs too much: the same replies wherever the mail was parsed
 * (inbound routes, the relay, bounce and complaint reports).
 */
export interface MailRefusal {
  code: number;
  /** Starts with the enhanced status code. */
  message: string;
}

/** Structure past its limits is a media error; content past its size is a size error (RFC 3463). */
const LIMIT_REPLY: Record<MailLimitReason, (message: string) => MailRefusal> = {
  parts: (m) => ({ code: 554, message: `5.6.0 ${m}` }),
  structure: (m) => ({ code: 554, message: `5.6.0 ${m}` }),
  attachments: (m) => ({ code: 554, message: `5.6.0 ${m}` }),
  decoded_bytes: (m) => ({ code: 552, message: `5.3.4 ${m}` }),
  html: (m) => ({ code: 552, message: `5.3.4 ${m}` }),
};

/** A parse that stopped at one of its MailLimits (lib/bounded-mail.ts). */
export function limitRefusal(reason: MailLimitReason, message: string): MailRefusal {
  return LIMIT_REPLY[reason](message);
}

/**
 * A parse the pool did not do: too many waiting is temporary (the sender tries again later); too
 * slow or too big for a thread is permanent, since the same message would cost the same again.
 */
function poolRefusal(err: PoolRefusal): MailRefusal {
  if (err.reason === 'busy') return { code: 451, message: '4.3.2 Too many messages are being read; try again later' };
  return { code: 554, message: `5.6.0 The message could not be read within the limits: ${err.message}` };
}

/** The PoolRefusal of a parse as its reply; anything else is thrown on. */
export function refusalOrThrow(err: unknown): MailRefusal {
  if (err instanceof PoolRefusal) return poolRefusal(err);
  throw err;
}

/** The parsed mail as this realm's objects: attachment contents come back from a thread as Uint8Arrays. */
function reviveMail(mail: ParsedMail): ParsedMail {
  const attachments = mail.attachments.map((a) => ({ ...a, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) }));
  return { ...mail, attachments };
}

/** A pool whose threads parse mail (mail-parse.thread.ts), for parseMailInPool. */
export function mailParsePool(limits: PoolLimits): UntrustedPool {
  return new UntrustedPool(threadFile(import.meta.url, 'mail-parse.thread'), limits);
}

/**
 * The MIME parse of `raw` in `pool` (made by mailParsePool) within `limits`: the mail, or the
 * reply that refuses it (past a limit, too costly for a thread, or too many waiting already).
 */
export async function parseMailInPool(
  pool: UntrustedPool,
  raw: Buffer,
  limits: MailLimits,
  options: ParserOptions,
): Promise<{ mail: ParsedMail } | { refusal: MailRefusal }> {
  const input: BoundedParseInput = { raw, limits, options };
  let parsed: BoundedParse;
  try {
    parsed = await pool.run<BoundedParse>('parseMail', input);
  } catch (err) {
    return { refusal: refusalOrThrow(err) };
  }
  if (parsed.refusal) return { refusal: limitRefusal(parsed.refusal.reason, parsed.refusal.message) };
  return { mail: reviveMail(parsed.mail) };
}
