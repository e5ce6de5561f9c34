import isEmailValidator from 'validator/lib/isEmail.js';
import type { Plan } from '../accounts/account.entity.js';
import type { AddressInput, SendEmailArgs } from './send.inputs.js';
import { FieldErrorBag, msg } from '../../core/errors.js';
import { LANGUAGES } from '../templates/template.languages.js';
import { PERSONALIZATION_LIMITS, personalizationProblem } from './personalization.js';
import { LIMITS } from './send.limits.js';
import { checkAttachments } from './send.attachments.js';
import { checkHeaders } from './send.headers.js';

/*
 * The rules of SPEC.md "Sending email" and "Limits" that need no database. Messages follow the
 * Laravel wording /v1 clients already parse; plan rules carry an `#MS` code like the family's.
 */

// One list for sends and template translations (SPEC.md's `language`).
export { LANGUAGES };

const REFERENCE_CHARS = /^[A-Za-z0-9_.@=<>()~!#$%^&*+\-[\]]*$/;
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

  if (args.headers != null) {
    if (!PRO.includes(plan)) bag.add('headers', 'Custom headers are available on Professional and Enterprise plans only. #MS42225');
    checkHeaders(bag, args.headers);
  }

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
