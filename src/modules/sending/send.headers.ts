import type { SendEmailArgs } from './send.inputs.js';
import { FieldErrorBag, msg } from '../../core/errors.js';
import { LIMITS } from './send.limits.js';

/**
 * Custom headers (SPEC.md "Sending email" `headers`) are an allow-list: `X-` headers, less the
 * ones below, and a few standard headers a transactional sender sets and the service never writes
 * (mime.ts writes From, To, Cc, Reply-To, Subject, Date, Message-ID, MIME-Version, Content-*,
 * In-Reply-To, References, List-Unsubscribe(-Post), Precedence and DKIM-Signature; the API has
 * fields for those it lets a sender choose). Anything else could pass for the service's own
 * header, or for a receiving server's verdict: Resent-*, Sender, Received, Authentication-Results,
 * ARC-*, a top-level Content-Disposition (test/sending/custom-headers.test.ts).
 */
const STANDARD_HEADERS = new Map(
  [
    // RFC 3834: marks the mail as sent by a program, so that auto-replies stay quiet.
    'Auto-Submitted',
    // Gmail's feedback loop: reports go to the domain that signed it, the sender's own.
    'Feedback-ID',
    // RFC 2919: lets mailbox providers group a stream of mail.
    'List-ID',
    // RFC 5322 informational fields, and the priority fields mail clients read.
    'Keywords', 'Comments', 'Importance', 'Priority', 'Sensitivity', 'Organization',
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * `X-` headers refused: those mailbox providers, filters and forwarders write as their own record
 * or verdict, which a downstream filter may trust (spam and virus scores, authentication results,
 * the original sender or recipient, the submitting client), and `X-Postbox-*`, kept for the
 * service. By prefix of the lowercase name, and by words any such verdict carries.
 */
const REFUSED_X_PREFIXES = [
  'x-postbox-', 'x-original-', 'x-ms-', 'x-microsoft-', 'x-forefront-', 'x-exchange-', 'x-google-', 'x-gm-', 'x-yahoo-',
  'x-ymail-', 'x-apple-', 'x-authenticated-', 'x-envelope-', 'x-forwarded-', 'x-report-abuse', 'x-complaints-to',
  'x-originating-', 'x-sender', 'x-received', 'x-arc-', 'x-proofpoint-', 'x-mimecast-', 'x-ironport-', 'x-barracuda-',
];
const REFUSED_X_WORDS = ['spam', 'virus', 'phish', 'authenticat', 'dkim', 'spf', 'dmarc'];

/** Headers mime.ts writes, for the message of a refusal. */
const WRITTEN_BY_SERVICE = new Set([
  'from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'reply-to', 'sender', 'return-path', 'dkim-signature',
  'content-type', 'content-transfer-encoding', 'mime-version', 'list-unsubscribe', 'list-unsubscribe-post', 'in-reply-to',
  'references', 'precedence',
]);

/** Why a custom header's name is refused (the end of a 422 message), or null when it may be given. */
export function customHeaderRefusal(name: string): string | null {
  const lower = name.toLowerCase();
  if (WRITTEN_BY_SERVICE.has(lower) || lower.startsWith('x-postbox-')) return 'is set by the service and cannot be given';
  if (!lower.startsWith('x-')) {
    if (STANDARD_HEADERS.has(lower)) return null;
    return `must be an X- header or one of ${[...STANDARD_HEADERS.values()].join(', ')}`;
  }
  if (REFUSED_X_PREFIXES.some((p) => lower.startsWith(p)) || REFUSED_X_WORDS.some((w) => lower.includes(w))) {
    return 'is written by receiving mail servers and filters (a record or a verdict) and cannot be given';
  }
  return null;
}

const HEADER_NAME = /^[A-Za-z0-9-]+$/;
/** Control characters other than tab: a header value is one line of text. */
const HEADER_VALUE_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Each custom header's name and value, once the plan allows custom headers at all (send.validate.ts). */
export function checkHeaders(bag: FieldErrorBag, headers: NonNullable<SendEmailArgs['headers']>): void {
  if (headers.length > LIMITS.headers) return void bag.add('headers', msg.maxItems('headers', LIMITS.headers));
  headers.forEach((h, i) => {
    const field = `headers.${i}.name`;
    const refusal = customHeaderRefusal(h.name);
    if (!HEADER_NAME.test(h.name)) bag.add(field, `The ${field} may only contain letters, numbers and dashes.`);
    else if (h.name.length > LIMITS.headerName) bag.add(field, msg.maxString(field, LIMITS.headerName));
    else if (refusal) bag.add(field, `The ${field} ${refusal}.`);
    if (HEADER_VALUE_CONTROL.test(h.value) || h.value.length > LIMITS.headerValue) bag.add(`headers.${i}.value`, `The headers.${i}.value format is invalid.`);
  });
}
