import { LIMITS } from '../../modules/sending/send.limits.js';

/**
 * Which attachments inbound mail may carry: the file types the sending API accepts
 * (send.attachments.ts), by MIME type. Senders label the same file differently, so each
 * extension maps to the types mail clients actually use for it.
 */
const TYPES_BY_EXTENSION: Record<string, string[]> = {
  txt: ['text/plain'],
  csv: ['text/csv', 'text/comma-separated-values', 'application/csv'],
  log: ['text/plain', 'text/x-log'],
  css: ['text/css'],
  ics: ['text/calendar', 'application/ics'],
  xml: ['text/xml', 'application/xml'],
  jpg: ['image/jpeg', 'image/pjpeg'],
  jpe: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  png: ['image/png'],
  bmp: ['image/bmp', 'image/x-ms-bmp', 'image/x-bmp'],
  psd: ['image/vnd.adobe.photoshop', 'application/x-photoshop', 'image/x-photoshop', 'image/psd'],
  tif: ['image/tiff'],
  tiff: ['image/tiff'],
  svg: ['image/svg+xml'],
  indd: ['application/x-indesign'],
  ai: ['application/postscript', 'application/illustrator'],
  eps: ['application/postscript', 'image/x-eps'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  rtf: ['application/rtf', 'text/rtf'],
  odt: ['application/vnd.oasis.opendocument.text'],
  ott: ['application/vnd.oasis.opendocument.text-template'],
  pdf: ['application/pdf'],
  pub: ['application/x-mspublisher', 'application/vnd.ms-publisher'],
  pages: ['application/vnd.apple.pages', 'application/x-iwork-pages-sffpages'],
  mobi: ['application/x-mobipocket-ebook'],
  epub: ['application/epub+zip'],
  mp3: ['audio/mpeg', 'audio/mp3'],
  m4a: ['audio/mp4', 'audio/x-m4a'],
  m4v: ['video/x-m4v', 'video/mp4'],
  wma: ['audio/x-ms-wma'],
  ogg: ['audio/ogg', 'application/ogg', 'video/ogg'],
  flac: ['audio/flac', 'audio/x-flac'],
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  aif: ['audio/aiff', 'audio/x-aiff'],
  aifc: ['audio/aiff', 'audio/x-aiff'],
  aiff: ['audio/aiff', 'audio/x-aiff'],
  mp4: ['video/mp4'],
  mov: ['video/quicktime'],
  avi: ['video/x-msvideo', 'video/avi'],
  mkv: ['video/x-matroska'],
  mpeg: ['video/mpeg'],
  mpg: ['video/mpeg'],
  wmv: ['video/x-ms-wmv'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet'],
  numbers: ['application/vnd.apple.numbers', 'application/x-iwork-numbers-sffnumbers'],
  odp: ['application/vnd.oasis.opendocument.presentation'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  pps: ['application/vnd.ms-powerpoint'],
  key: ['application/vnd.apple.keynote', 'application/x-iwork-keynote-sffkey'],
  zip: ['application/zip', 'application/x-zip-compressed'],
  vcf: ['text/vcard', 'text/x-vcard'],
  eml: ['message/rfc822'],
  p7c: ['application/pkcs7-mime', 'application/x-pkcs7-mime'],
  p7m: ['application/pkcs7-mime', 'application/x-pkcs7-mime'],
  p7s: ['application/pkcs7-signature', 'application/x-pkcs7-signature'],
  pgp: ['application/pgp-encrypted', 'application/pgp-keys'],
  asc: ['application/pgp-signature', 'application/pgp-keys', 'text/plain'],
  sig: ['application/pgp-signature'],
};

export const SUPPORTED_ATTACHMENT_TYPES: ReadonlySet<string> = new Set(Object.values(TYPES_BY_EXTENSION).flat());

/** Labels that say nothing about the content: the file name's extension decides instead. */
const GENERIC = new Set(['application/octet-stream', 'application/x-unknown', 'application/unknown']);

/** Decoded bytes per attachment, as for sending (SPEC.md Limits: attachment 25 MB decoded). */
export const MAX_INBOUND_ATTACHMENT_BYTES = LIMITS.attachment;

export interface AttachmentFacts {
  filename?: string;
  contentType: string;
  size: number;
}

export function attachmentSupported(a: AttachmentFacts): boolean {
  const type = a.contentType.toLowerCase();
  if (SUPPORTED_ATTACHMENT_TYPES.has(type)) return true;
  if (!GENERIC.has(type)) return false;
  const ext = /\.([A-Za-z0-9]+)$/.exec(a.filename ?? '')?.[1]?.toLowerCase();
  return !!ext && ext in TYPES_BY_EXTENSION;
}

export type AttachmentVerdict =
  | { ok: true }
  | { ok: false; reason: 'unsupported_attachment_type'; types: string[] }
  | { ok: false; reason: 'attachment_size_exceeded'; types?: undefined };

/**
 * Why a message's attachments are refused, if they are. A type refusal is reported first: its
 * event names the offending types, which tells the sender more than a size does.
 */
export function checkAttachments(list: AttachmentFacts[]): AttachmentVerdict {
  const bad = [...new Set(list.filter((a) => !attachmentSupported(a)).map((a) => a.contentType.toLowerCase()))];
  if (bad.length) return { ok: false, reason: 'unsupported_attachment_type', types: bad };
  if (list.some((a) => a.size > MAX_INBOUND_ATTACHMENT_BYTES)) return { ok: false, reason: 'attachment_size_exceeded' };
  return { ok: true };
}
