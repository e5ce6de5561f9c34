/**
 * What sending mail looks like to whoever sends (the service container's `mail`): the transports
 * themselves (capture, MX, a smarthost) live in modules/mail.
 */

export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  kind?: string;
  /**
   * The account (and domain) the mail is about, for mail its people may act on (an invitation,
   * an address to confirm, a notice): the sandbox inbox shows it to them. Absent for mail only its
   * addressee may read (a password reset).
   */
  account_id?: string;
  domain_id?: string;
}

/** A finished MIME message (signed), with its SMTP envelope. `envelope.to[0]` is the email's own recipient. */
export interface RawMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  /** For the capture transport: what the stored copy is listed by. */
  meta: { email_id: string; to: string; from: string; subject: string; text: string; html: string | null; kind?: string };
  /** The IP pool its domain or account was given (IP_POOLS), for MX delivery's source address. */
  pool?: string | null;
}

/** The TLS policy an MX delivery went under: DANE, the domain's MTA-STS policy, or none (opportunistic). */
export type TlsPolicyUsed = 'dane' | 'mta-sts' | 'none';

export interface SendInfo {
  id: string;
  /** The server's final answer (`250 2.0.0 queued as ...`), or `captured`. */
  response: string;
  /** With MAIL_TRANSPORT=mx: the TLS policy the email's session went under. */
  tls_policy?: TlsPolicyUsed;
}

/**
 * How the service hands over mail: mail it writes itself (identity confirmations, invites, alerts)
 * through `send`, customers' messages, already built and signed, through `sendRaw`.
 * `capture` keeps the message in the database, readable by operators and through the email log,
 * so a fresh install works offline; `mx` and smtp:// deliver it for real (smtp-transport.ts).
 * Failures are PermanentMailError (5xx, give up) or TemporaryMailError (retry later).
 */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<SendInfo>;
  sendRaw(mail: RawMail): Promise<SendInfo>;
}
