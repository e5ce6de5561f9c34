import type { ParsedMail, ParserOptions } from 'mailparser';
import { MailLimitError, parseMailBounded, type MailLimitReason, type MailLimits } from './bounded-mail.js';
import { poolTask } from './untrusted-thread.js';

/**
 * The task of the mail-parsing pools (mail-in-pool.ts runs it, with a hard time limit): the MIME
 * parse of a message, off the event loop and within its limits. Inputs and results cross the
 * thread boundary by structured clone: Buffers arrive as Uint8Arrays.
 */

export type BoundedParse =
  | { mail: ParsedMail; refusal: null }
  | { mail: null; refusal: { reason: MailLimitReason; message: string } };

export interface BoundedParseInput {
  raw: Uint8Array;
  limits: MailLimits;
  options: ParserOptions;
}

export const parseMail = poolTask(async (input: BoundedParseInput): Promise<BoundedParse> => {
  const raw = Buffer.from(input.raw.buffer, input.raw.byteOffset, input.raw.byteLength);
  try {
    return { mail: await parseMailBounded(raw, input.limits, input.options), refusal: null };
  } catch (err) {
    if (err instanceof MailLimitError) return { mail: null, refusal: { reason: err.reason, message: err.message } };
    throw err;
  }
});
