/** The bounds SPEC.md "Sending email" and "Limits" set on one send, checked before anything is stored. */
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
