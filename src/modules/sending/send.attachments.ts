import type { SendEmailArgs } from './send.inputs.js';
import { FieldErrorBag, msg } from '../../core/errors.js';
import { LIMITS } from './send.limits.js';
import type { CheckedSend } from './send.validate.js';

/** The file types an attachment may have, by its filename's extension. */
const EXTENSIONS = new Set(
  (
    'txt csv log css ics xml jpg jpe jpeg gif png bmp psd tif tiff svg indd ai eps doc docx rtf odt ott pdf pub ' +
    'pages mobi epub mp3 m4a m4v wma ogg flac wav aif aifc aiff mp4 mov avi mkv mpeg mpg wmv xls xlsx ods numbers ' +
    'odp ppt pptx pps key zip vcf eml p7c p7m p7s pgp asc sig'
  ).split(' '),
);

/** RFC 5322 msg-id contents (id-left "@" id-right) or a bare dot-atom, as `cid:` references use. */
const CONTENT_ID = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*(@[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)?$/;

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
export function checkAttachments(bag: FieldErrorBag, attachments: SendEmailArgs['attachments']): CheckedSend['attachments'] {
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
