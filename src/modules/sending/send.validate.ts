import isEmailValidator from 'validator/lib/isEmail.js';
import type { Plan } from '../accounts/account.entity.js';
import type { AddressInput, SendEmailArgs } from './send.inputs.js';
import { FieldErrorBag, msg } from '../../core/errors.js';
import { LANGUAGES } from '../templates/template.languages.js';
import { PERSONALIZATION_LIMITS, personalizationProblem } from './personalization.js';

/**
 * The rules of SPEC.md "Sending email" and "Limits" that need no database. Messages follow the
 * Laravel wording /v1 clients already parse; plan rules carry an `#MS` code like the family's.
 */
export const LIMITS = {
  to: 50,
  cc: 10,
  bcc: 10,
  subject: 998,
  body: 2 * 1024 * 1024,
  attachment: 25 * 1024 * 1024,
  attachmentId: 256,
  tags: 5,
  tag: 191,
  inReplyTo: 998,
  listUnsubscribe: 990,
  scheduleHours: 72,
  /** Custom headers of one send: as many as a mail client adds, far fewer than a message could carry. */
  headers: 50,
  headerName: 76,
  headerValue: 998,
} as const;

// One list for sends and template translations (SPEC.md's `language`).
export { LANGUAGES };

const EXTENSIONS = new Set(
  (
    'txt csv log css ics xml jpg jpe jpeg gif png bmp psd tif tiff svg indd ai eps doc docx rtf odt ott pdf pub ' +
    'pages mobi epub mp3 m4a m4v wma ogg flac wav aif aifc aiff mp4 mov avi mkv mpeg mpg wmv xls xlsx ods numbers ' +
    'odp ppt pptx pps key zip vcf eml p7c p7m p7s pgp asc sig'
  ).split(' '),
);

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

const REFERENCE_CHARS = /^[A-Za-z0-9_.@=<>()~!#$%^&*+\-[\]]*$/;
const HEADER_NAME = /^[A-Za-z0-9-]+$/;
/** Control characters other than tab: a header value is one line of text. */
const HEADER_VALUE_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** RFC 5322 msg-id contents (id-left "@" id-right) or a bare dot-atom, as `cid:` references use. */
const CONTENT_ID = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*(@[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)?$/;
/** RFC 8058 wants an https URI; a mailto: may sit beside it. Each is one `<...>` item. */
const LIST_UNSUBSCRIBE = /^<(https:\/\/[^\s<>]+|mailto:[^\s<>]+)>(\s*,\s*<(https:\/\/[^\s<>]+|mailto:[^\s<>]+)>)?$/;

const PAID: Plan[] = ['starter', 'professional', 'enterprise'];
const PRO: Plan[] = ['professional', 'enterprise'];

export function isEmail(value: string): boolean {
  return value.length <= 320 && isEmailValidator.default(value, { allow_utf8_local_part: true, require_tld: true });
}

function checkAddress(bag: FieldErrorBag, path: string, a: AddressInput, nameRules: boolean) {
  if (!isEmail(a.email)) bag.add(`${path}.email`, msg.email(`${path}.email`));
  if (a.name != null) {
    if (a.name.length > 191) bag.add(`${path}.name`, msg.maxString(`${path}.name`, 191));
    if (nameRules && /[;,]/.test(a.name)) bag.add(`${path}.name`, `The ${path}.name may not contain ; or ,.`);
    if (/[\r\n]/.test(a.name)) bag.add(`${path}.name`, `The ${path}.name may not contain line breaks.`);
  }
}

function checkList(bag: FieldErrorBag, field: 'to' | 'cc' | 'bcc', list: AddressInput[] | null | undefined, max: number) {
  if (!list) return;
  if (list.length > max) bag.add(field, msg.maxItems(field, max));
  list.slice(0, max).forEach((a, i) => checkAddress(bag, `${field}.${i}`, a, true));
}

/** Seconds or an ISO string → a date; null when it is neither. */
export function parseSendAt(value: number | string): Date | null {
  if (typeof value === 'number') return new Date(value * 1000);
  if (/^\d+$/.test(value)) return new Date(Number(value) * 1000);
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface CheckedSend {
  sendAt: Date | null;
  attachments: { filename: string; disposition: 'inline' | 'attachment'; content_id: string | null; content: Buffer }[];
}

/**
 * Everything that can be judged from the request and the account's plan alone. `template` tells
 * whether a template will supply the missing parts (checked against the database afterwards).
 */
export function checkSend(args: SendEmailArgs, plan: Plan, now: Date, bag: FieldErrorBag): CheckedSend {
  const out: CheckedSend = { sendAt: null, attachments: [] };

  if (args.from) checkAddress(bag, 'from', args.from, false);
  if (!args.to?.length) bag.add('to', msg.required('to'));
  checkList(bag, 'to', args.to, LIMITS.to);
  checkList(bag, 'cc', args.cc, LIMITS.cc);
  checkList(bag, 'bcc', args.bcc, LIMITS.bcc);
  if (args.reply_to) checkAddress(bag, 'reply_to', args.reply_to, false);

  checkContent(bag, args);

  out.attachments = checkAttachments(bag, args.attachments);

  if (args.language != null && !(LANGUAGES as readonly string[]).includes(args.language)) bag.add('language', msg.in('language'));

  if (args.tags) {
    if (args.tags.length > LIMITS.tags) bag.add('tags', msg.maxItems('tags', LIMITS.tags));
    args.tags.forEach((t, i) => {
      if (t.length > LIMITS.tag) bag.add(`tags.${i}`, msg.maxString(`tags.${i}`, LIMITS.tag));
    });
  }

  checkPersonalization(bag, args.personalization);

  if (args.send_at != null) {
    const at = parseSendAt(args.send_at);
    const max = now.getTime() + LIMITS.scheduleHours * 3600_000;
    // A minute of grace: a client's "now" is a little behind ours by the time it arrives.
    if (!at || at.getTime() < now.getTime() - 60_000 || at.getTime() > max) {
      bag.add('send_at', 'The send at must be a date between now and 72 hours from now.');
    } else {
      out.sendAt = at.getTime() > now.getTime() ? at : null;
    }
  }

  if (args.in_reply_to != null) {
    if (!PAID.includes(plan)) bag.add('in_reply_to', 'The in reply to field is available on paid plans only. #MS42224');
    if (args.in_reply_to.length > LIMITS.inReplyTo) bag.add('in_reply_to', msg.maxString('in_reply_to', LIMITS.inReplyTo));
    if (!REFERENCE_CHARS.test(args.in_reply_to)) bag.add('in_reply_to', msg.url('in_reply_to'));
  }
  if (args.references != null) {
    if (!PAID.includes(plan)) bag.add('references', 'The references field is available on paid plans only. #MS42224');
    args.references.forEach((r, i) => {
      if (r.length > LIMITS.inReplyTo) bag.add(`references.${i}`, msg.maxString(`references.${i}`, LIMITS.inReplyTo));
      if (!REFERENCE_CHARS.test(r)) bag.add(`references.${i}`, msg.url(`references.${i}`));
    });
  }

  if (args.settings != null) {
    for (const [k, v] of Object.entries(args.settings)) {
      if (!['track_clicks', 'track_opens', 'track_content'].includes(k)) bag.add(`settings.${k}`, `The settings.${k} key is not allowed.`);
      else if (typeof v !== 'boolean') bag.add(`settings.${k}`, msg.boolean(`settings.${k}`));
    }
  }

  if (args.headers != null) checkHeaders(bag, args.headers, plan);

  if (args.list_unsubscribe != null) {
    if (!PRO.includes(plan)) bag.add('list_unsubscribe', 'The list unsubscribe field is available on Professional and Enterprise plans only. #MS42225');
    if (args.list_unsubscribe.length > LIMITS.listUnsubscribe) bag.add('list_unsubscribe', msg.maxString('list_unsubscribe', LIMITS.listUnsubscribe));
    else if (!LIST_UNSUBSCRIBE.test(args.list_unsubscribe.trim())) bag.add('list_unsubscribe', 'The list unsubscribe must be one value that complies with RFC 8058.');
  }
  return out;
}

/** Subject, text and html: each within its size, and what a template does not give, given. */
function checkContent(bag: FieldErrorBag, args: SendEmailArgs): void {
  const hasTemplate = !!args.template_id;
  if (args.subject != null) {
    if (args.subject.length > LIMITS.subject) bag.add('subject', msg.maxString('subject', LIMITS.subject));
    if (/[\r\n]/.test(args.subject)) bag.add('subject', 'The subject may not contain line breaks.');
  } else if (!hasTemplate) {
    bag.add('subject', msg.requiredWithout('subject', 'template_id'));
  }
  const hasText = args.text != null && args.text !== '';
  const hasHtml = args.html != null && args.html !== '';
  if (!hasText && !hasHtml && !hasTemplate) {
    bag.add('text', 'The text field is required when none of html / template id are present.');
    bag.add('html', 'The html field is required when none of text / template id are present.');
    bag.add('template_id', 'The template id field is required when none of text / html are present.');
  }
  for (const f of ['text', 'html'] as const) {
    const v = args[f];
    if (v != null && Buffer.byteLength(v) > LIMITS.body) bag.add(f, `The ${f} may not be greater than 2 MB.`);
  }
}

const countOf = (s: string, c: string) => {
  let n = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) n++;
  return n;
};

/**
 * Whether `s` is base64 as PostgreSQL's decode() takes it (the statement that stores it): the
 * standard alphabet, line breaks anywhere, whole quads, `=` padding at the end only. `decoded` is
 * Node's reading of it, which skips characters it does not know, so other characters decode
 * short. Native scans, where one regular expression over the largest attachment held the event
 * loop (bench/worst-inputs.ts); test/sending/accept.test.ts, "takes base64".
 */
function isBase64(s: string, decoded: Buffer): boolean {
  // Node's decoder also takes base64url's alphabet.
  if (s.includes('-') || s.includes('_')) return false;
  let end = s.length;
  while (end > 0 && (s[end - 1] === '\n' || s[end - 1] === '\r')) end--;
  let pad = 0;
  while (pad < 3 && s[end - 1 - pad] === '=') pad++;
  const firstEq = s.indexOf('=');
  if (pad > 2 || (firstEq >= 0 && firstEq < end - pad)) return false;
  const chars = s.length - countOf(s, '\n') - countOf(s, '\r');
  return chars % 4 === 0 && decoded.length === (chars / 4) * 3 - pad;
}

/** Each attachment checked, and decoded when it may be: its size is judged on the base64 before decoding. */
function checkAttachments(bag: FieldErrorBag, attachments: SendEmailArgs['attachments']): CheckedSend['attachments'] {
  const decoded: CheckedSend['attachments'] = [];
  (attachments ?? []).forEach((a, i) => {
    const p = `attachments.${i}`;
    const disposition = (a.disposition ?? 'attachment') as 'inline' | 'attachment';
    if (disposition !== 'inline' && disposition !== 'attachment') bag.add(`${p}.disposition`, msg.in(`${p}.disposition`));
    const ext = a.filename.includes('.') ? a.filename.slice(a.filename.lastIndexOf('.') + 1).toLowerCase() : '';
    if (!EXTENSIONS.has(ext)) bag.add(`${p}.filename`, `The ${p}.filename must have one of the supported file extensions.`);
    if (a.filename.length > 255 || /[\r\n"\\/]/.test(a.filename)) bag.add(`${p}.filename`, `The ${p}.filename format is invalid.`);
    if (a.id != null) {
      if (a.id.length > LIMITS.attachmentId) bag.add(`${p}.id`, msg.maxString(`${p}.id`, LIMITS.attachmentId));
      else if (!CONTENT_ID.test(a.id)) bag.add(`${p}.id`, `The ${p}.id must be a valid Content-ID.`);
      if (disposition !== 'inline') bag.add(`${p}.id`, `The ${p}.id may only be used when ${p}.disposition is inline.`);
    }
    // 25 MB decoded is at most 4/3 of that encoded: refuse bigger strings before decoding them.
    if (a.content.length > Math.ceil((LIMITS.attachment * 4) / 3) + 4096) {
      bag.add(`${p}.content`, `The ${p}.content may not be greater than 25 MB.`);
    } else {
      const content = Buffer.from(a.content, 'base64');
      if (!isBase64(a.content, content)) {
        bag.add(`${p}.content`, `The ${p}.content must be a valid base64 string.`);
        return;
      }
      if (content.length > LIMITS.attachment) bag.add(`${p}.content`, `The ${p}.content may not be greater than 25 MB.`);
      decoded.push({ filename: a.filename, disposition, content_id: a.id ?? null, content });
    }
  });
  return decoded;
}

/**
 * The personalization entries and each one's data, within PERSONALIZATION_LIMITS, before anything
 * renders: a refused entry names its `personalization.N.data` and where in it the bound was passed.
 */
export function checkPersonalization(bag: { add(field: string, message: string): unknown }, list: SendEmailArgs['personalization']): void {
  if (!list) return;
  if (list.length > PERSONALIZATION_LIMITS.items) return void bag.add('personalization', msg.maxItems('personalization', PERSONALIZATION_LIMITS.items));
  list.forEach((p, i) => {
    if (!isEmail(p.email)) bag.add(`personalization.${i}.email`, msg.email(`personalization.${i}.email`));
    const { problem } = personalizationProblem(p.data);
    if (problem) bag.add(`personalization.${i}.data`, `The personalization.${i}.data ${problem}.`);
  });
}

function checkHeaders(bag: FieldErrorBag, headers: NonNullable<SendEmailArgs['headers']>, plan: Plan): void {
  if (!PRO.includes(plan)) bag.add('headers', 'Custom headers are available on Professional and Enterprise plans only. #MS42225');
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
