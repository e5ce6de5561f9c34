import type { AddressObject, Attachment, EmailAddress, ParsedMail } from 'mailparser';
import type { Plan } from '../../modules/accounts/account.entity.js';
import type { AddressInput, SendEmailArgs } from '../../modules/sending/send.inputs.js';
import { customHeaderRefusal } from '../../modules/sending/send.headers.js';

// The plan gates of send.validate.ts: fields a mail client sets on its own (In-Reply-To on a
// reply, X-Mailer) are dropped when the plan does not allow them, instead of refusing the mail.
const PAID: Plan[] = ['starter', 'professional', 'enterprise'];
const PRO: Plan[] = ['professional', 'enterprise'];

const HEADER_NAME = /^X-[A-Za-z0-9-]+$/i;
const MAX_CUSTOM_HEADERS = 50;

/** Extensions for attachments that came without a file name (the API needs one). */
const EXTENSION_OF: Record<string, string> = {
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/calendar': 'ics',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'message/rfc822': 'eml',
};

/** The address is `domain` or one of its subdomains. */
export function onDomain(email: string, domain: string): boolean {
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  const host = email.slice(at + 1).toLowerCase();
  const d = domain.toLowerCase();
  return host === d || host.endsWith(`.${d}`);
}

function addresses(field: AddressObject | AddressObject[] | undefined): AddressInput[] {
  const flat = (list: EmailAddress[]): EmailAddress[] => list.flatMap((a) => (a.group ? flat(a.group) : [a]));
  const objects = Array.isArray(field) ? field : field ? [field] : [];
  return flat(objects.flatMap((o) => o.value))
    .filter((a) => !!a.address)
    .map((a) => ({ email: a.address!, name: a.name || null }));
}

export function firstAddress(field: AddressObject | undefined): AddressInput | null {
  return addresses(field)[0] ?? null;
}

/** Header lines unfolded, with the name as the client spelled it. */
function headerValues(parsed: ParsedMail, match: (key: string) => boolean) {
  return parsed.headerLines
    .filter((h) => match(h.key.toLowerCase()))
    .map((h) => {
      const colon = h.line.indexOf(':');
      return { name: h.line.slice(0, colon).trim(), value: h.line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim() };
    });
}

function attachmentOf(a: Attachment, i: number) {
  const inline = a.contentDisposition === 'inline';
  const ext = EXTENSION_OF[a.contentType.toLowerCase()] ?? 'bin';
  return {
    content: a.content.toString('base64'),
    filename: a.filename || `attachment-${i + 1}.${ext}`,
    disposition: inline ? 'inline' : 'attachment',
    id: inline && a.cid ? a.cid.replace(/^<|>$/g, '') : null,
  };
}

/**
 * The send the API would have received for this mail. The envelope decides who gets it, as it
 * does for any relay: To and Cc header addresses that are also envelope recipients keep their
 * role, the other envelope recipients are Bcc, and header addresses outside the envelope are
 * not sent to. A mail whose To names no envelope recipient (all Bcc, "undisclosed recipients")
 * sends each envelope recipient its own copy addressed to itself.
 */
export function toSendArgs(parsed: ParsedMail, envelope: string[], plan: Plan): SendEmailArgs {
  const wanted = new Map(envelope.map((e) => [e.toLowerCase(), e]));
  const taken = new Set<string>();
  const pick = (list: AddressInput[]) =>
    list.filter((a) => {
      const key = a.email.toLowerCase();
      if (!wanted.has(key) || taken.has(key)) return false;
      taken.add(key);
      return true;
    });
  let to = pick(addresses(parsed.to));
  let cc = pick(addresses(parsed.cc));
  let bcc: AddressInput[] = [...wanted].filter(([key]) => !taken.has(key)).map(([, email]) => ({ email, name: null }));
  if (!to.length && bcc.length) [to, bcc] = [bcc, []];
  else if (!to.length) [to, cc] = [cc, []];

  const args: SendEmailArgs = {
    from: firstAddress(parsed.from),
    to,
    cc: cc.length ? cc : null,
    bcc: bcc.length ? bcc : null,
    reply_to: firstAddress(parsed.replyTo),
    subject: parsed.subject ?? '',
    text: typeof parsed.text === 'string' && parsed.text !== '' ? parsed.text : null,
    html: typeof parsed.html === 'string' && parsed.html !== '' ? parsed.html : null,
    attachments: parsed.attachments.length ? parsed.attachments.map(attachmentOf) : null,
  };
  if (PAID.includes(plan)) {
    if (parsed.inReplyTo) args.in_reply_to = parsed.inReplyTo;
    if (parsed.references) args.references = Array.isArray(parsed.references) ? parsed.references : [parsed.references];
  }
  if (PRO.includes(plan)) {
    // Headers the API would refuse (send.headers.ts customHeaderRefusal) are dropped, not the mail (test/sending/custom-headers.test.ts).
    const custom = headerValues(parsed, (k) => k.startsWith('x-')).filter(
      (h) => HEADER_NAME.test(h.name) && !customHeaderRefusal(h.name) && h.value && h.value.length <= 998,
    );
    if (custom.length) args.headers = custom.slice(0, MAX_CUSTOM_HEADERS);
    const [unsubscribe] = headerValues(parsed, (k) => k === 'list-unsubscribe');
    if (unsubscribe) args.list_unsubscribe = unsubscribe.value;
  }
  return args;
}
