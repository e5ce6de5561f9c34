import type { Attachment, ParsedMail } from 'mailparser';
import { MailLimitError, parseMailBounded, type MailLimitReason, type MailLimits } from '../../lib/bounded-mail.js';
import { poolTask } from '../../lib/untrusted-thread.js';

/**
 * The task of the report threads (report.ts runs it, with a hard time limit): what a delivery
 * status notification (RFC 3464) or a feedback report (RFC 5965, ARF) says, read with the bounded
 * MIME parser, off the event loop. Only the fields the pipeline acts on are kept. Inputs and
 * results cross the thread boundary by structured clone: a Buffer arrives as a Uint8Array.
 */

export type Report =
  | { kind: 'dsn'; recipients: { recipient: string | null; action: string; status: string; diagnostic: string | null }[]; originalMessageId: string | null }
  | { kind: 'arf'; feedbackType: string; originalMessageId: string | null; originalRecipient: string | null }
  | { kind: 'none' };

export type ReportRead = { report: Report; refusal: null } | { report: null; refusal: { reason: MailLimitReason; message: string } };

export interface ReportInput {
  raw: Uint8Array;
  limits: MailLimits;
}

/** RFC 822-style fields; a DSN has one block for the message and one per recipient. */
function fieldBlocks(text: string): Record<string, string>[] {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split(/\n\s*\n/)
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const i = line.indexOf(':');
        if (i > 0) fields[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      return fields;
    })
    .filter((f) => Object.keys(f).length > 0);
}

/** `rfc822; a@b` → `a@b` */
const typedValue = (v: string | undefined) => (v ? v.replace(/^[^;]*;\s*/, '').trim() : null);

const partText = (a: Attachment) => a.content.toString('utf8');

/**
 * The Message-ID of the message a report quotes: from its attached original (or headers) when
 * mailparser keeps it as a part, else the first Message-ID header inside the body, since
 * mailparser folds an inline message/rfc822 part into the text.
 */
async function messageIdOf(parts: Attachment[], raw: Buffer, limits: MailLimits): Promise<string | null> {
  const original = parts.find((a) => a.contentType === 'message/rfc822' || a.contentType === 'text/rfc822-headers');
  if (original) {
    const headers = await parseMailBounded(original.content, limits, { skipHtmlToText: true, skipTextLinks: true });
    if (headers.messageId) return headers.messageId;
  }
  const text = raw.toString('utf8');
  const bodyStart = text.search(/\r?\n\r?\n/);
  const inner = /^Message-ID:\s*(<[^>\s]+>)/im.exec(bodyStart < 0 ? '' : text.slice(bodyStart));
  return inner?.[1] ?? null;
}

async function reportOf(raw: Buffer, limits: MailLimits): Promise<Report> {
  const parsed: ParsedMail = await parseMailBounded(raw, limits, {
    skipHtmlToText: true,
    skipTextLinks: true,
    // Keep the machine-readable part of a DSN as a part instead of text.
    keepDeliveryStatus: true,
  });
  const parts = parsed.attachments;
  const status = parts.find((a) => a.contentType === 'message/delivery-status' || a.contentType === 'message/global-delivery-status');
  if (status) {
    const blocks = fieldBlocks(partText(status));
    const recipients = blocks
      .filter((b) => b.action || b.status)
      .map((b) => ({
        recipient: typedValue(b['final-recipient'] ?? b['original-recipient']),
        action: (b.action ?? '').toLowerCase(),
        status: b.status ?? '',
        diagnostic: typedValue(b['diagnostic-code']),
      }));
    return { kind: 'dsn', recipients, originalMessageId: await messageIdOf(parts, raw, limits) };
  }
  const feedback = parts.find((a) => a.contentType === 'message/feedback-report');
  if (feedback) {
    const [fields] = fieldBlocks(partText(feedback));
    return {
      kind: 'arf',
      feedbackType: (fields?.['feedback-type'] ?? 'abuse').toLowerCase(),
      originalMessageId: await messageIdOf(parts, raw, limits),
      originalRecipient: typedValue(fields?.['original-rcpt-to']) ?? fields?.['removal-recipient'] ?? null,
    };
  }
  return { kind: 'none' };
}

/** The report a mail carries, or the limit its parse stopped at. */
export const readReportMail = poolTask(async (input: ReportInput): Promise<ReportRead> => {
  const raw = Buffer.from(input.raw.buffer, input.raw.byteOffset, input.raw.byteLength);
  try {
    return { report: await reportOf(raw, input.limits), refusal: null };
  } catch (err) {
    if (err instanceof MailLimitError) return { report: null, refusal: { reason: err.reason, message: err.message } };
    throw err;
  }
});
