import type * as MailParser from 'mailparser';
import type { Attachment } from 'mailparser';
import { lazy } from '../../lib/lazy.js';

/** Loaded on first use (lib/lazy.ts): only the roles that parse mail pay for the parser. */
const mailparser = lazy<typeof MailParser>('mailparser');

/**
 * What a delivery status notification (RFC 3464) or a feedback report (RFC 5965, ARF) says,
 * read with mailparser. Only the fields the pipeline acts on are kept.
 */
export type Report =
  | { kind: 'dsn'; recipients: { recipient: string | null; action: string; status: string; diagnostic: string | null }[]; originalMessageId: string | null }
  | { kind: 'arf'; feedbackType: string; originalMessageId: string | null; originalRecipient: string | null }
  | { kind: 'none' };

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
async function messageIdOf(parts: Attachment[], raw: Buffer): Promise<string | null> {
  const original = parts.find((a) => a.contentType === 'message/rfc822' || a.contentType === 'text/rfc822-headers');
  if (original) {
    const headers = await mailparser().simpleParser(original.content);
    const id = (headers as { messageId?: string }).messageId;
    if (id) return id;
  }
  const text = raw.toString('utf8');
  const bodyStart = text.search(/\r?\n\r?\n/);
  const inner = /^Message-ID:\s*(<[^>\s]+>)/im.exec(bodyStart < 0 ? '' : text.slice(bodyStart));
  return inner?.[1] ?? null;
}

export async function readReport(raw: Buffer): Promise<Report> {
  const parsed = await mailparser().simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    // Keep the machine-readable part of a DSN as a part instead of text.
    keepDeliveryStatus: true,
  });
  const parts = parsed.attachments ?? [];
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
    return { kind: 'dsn', recipients, originalMessageId: await messageIdOf(parts, raw) };
  }
  const feedback = parts.find((a) => a.contentType === 'message/feedback-report');
  if (feedback) {
    const [fields] = fieldBlocks(partText(feedback));
    return {
      kind: 'arf',
      feedbackType: (fields?.['feedback-type'] ?? 'abuse').toLowerCase(),
      originalMessageId: await messageIdOf(parts, raw),
      originalRecipient: typedValue(fields?.['original-rcpt-to']) ?? fields?.['removal-recipient'] ?? null,
    };
  }
  return { kind: 'none' };
}
