import { asDate, asDateOrNull } from '../../db/sql.js';
import type { LoggedEmail } from './email.type.js';

/** What the recipient did; `no_interaction` is none of the others. */
export const INTERACTIONS = ['opened', 'clicked', 'unsubscribed', 'no_interaction'] as const;
export type Interaction = (typeof INTERACTIONS)[number];

/** A log row: the email, with its message's sender and template (EmailLogRepository). */
export interface EmailRow {
  id: string;
  message_id: string;
  domain_id: string;
  template_id: string | null;
  from_email: string;
  from_name: string | null;
  to_email: string;
  to_name: string | null;
  subject: string;
  tags: string[] | null;
  status: string;
  suppression_reason: string | null;
  opened_at: unknown;
  clicked_at: unknown;
  unsubscribed_at: unknown;
  headers: { name: string; value: string }[] | null;
  created_at: unknown;
  updated_at: unknown;
}

export function toLoggedEmail(r: EmailRow): LoggedEmail {
  return {
    id: r.id,
    message_id: r.message_id,
    domain_id: r.domain_id,
    template_id: r.template_id,
    from: r.from_email,
    from_name: r.from_name,
    to: r.to_email,
    to_name: r.to_name,
    subject: r.subject,
    tags: r.tags?.length ? r.tags : null,
    status: r.status,
    suppression_reason: r.suppression_reason,
    // What the recipient did, as the mailersend SDK reads it.
    interaction: [
      ...(r.opened_at ? ['opened'] : []),
      ...(r.clicked_at ? ['clicked'] : []),
      ...(r.unsubscribed_at ? ['unsubscribed'] : []),
    ],
    headers: r.headers?.length ? r.headers : null,
    // The content is read with the single email only.
    text: null,
    html: null,
    opened_at: asDateOrNull(r.opened_at),
    clicked_at: asDateOrNull(r.clicked_at),
    unsubscribed_at: asDateOrNull(r.unsubscribed_at),
    created_at: asDate(r.created_at),
    updated_at: asDate(r.updated_at),
  };
}

/** What the capture transport kept of an email (captured_mails), when it handled it. */
export interface CapturedContent {
  html: string | null;
  text: string | null;
  raw: string | null;
}

/**
 * The content the single email shows: what the capture transport kept, else the message's (or its
 * template's) bodies. With track_content off the bodies are dropped once delivered, and then
 * nothing is shown: html, text and content are null, even where the capture transport (the
 * sandbox's mailbox, the recipient's side) still holds its copy, or the template still exists.
 */
export function shownContent(
  row: { html: string | null; text: string | null; content_cleared: boolean },
  captured: CapturedContent | null,
): { html: string | null; text: string | null; content: CapturedContent | null } {
  if (row.content_cleared) return { html: null, text: null, content: null };
  return {
    html: captured?.html ?? row.html,
    text: (captured?.text || null) ?? row.text,
    content: captured ? { html: captured.html, text: captured.text || null, raw: captured.raw } : null,
  };
}
