import type { Config } from '../../config/index.js';
import { decrypt } from '../../lib/secrets.js';
import { instrument, unsubscribeUrl } from '../../modules/tracking/instrument.js';
import { linkConfigFor } from '../../modules/tracking/tokens.js';
import type { ClaimedEmail, TakenMessage } from './delivery.repository.js';
import { buildMime, type MimeInput } from './mime.js';
import { renderAtDelivery } from '../../modules/sending/render.js';

/** A message taken for delivery, with what all of its emails share. */
export interface Prepared {
  message: TakenMessage;
  attachments: MimeInput['attachments'];
  privateKey: string;
}

/**
 * Decrypted DKIM keys by their sealed form: decrypting costs more than signing, and a worker
 * sends many messages of few domains. A new key (a new sealed value) is simply a new entry.
 */
const keys = new Map<string, string>();
export function dkimKey(appSecret: string, sealed: string): string {
  let key = keys.get(sealed);
  if (!key) {
    if (keys.size >= 1000) keys.clear();
    key = decrypt(appSecret, sealed);
    keys.set(sealed, key);
  }
  return key;
}

/** One email's MIME message: personalized, instrumented for tracking, DKIM-signed. */
export async function compose(config: Config, p: Prepared, email: ClaimedEmail) {
  const m = p.message;
  const data = m.personalization[email.to_email.toLowerCase()] ?? {};
  const settings = m.domain_settings;
  const unsubscribe = settings.track_unsubscribe;
  // Tracking links go to the domain's own tracking host once its CNAME is verified.
  const links = linkConfigFor(config, {
    name: m.domain_name,
    custom_tracking_enabled: settings.custom_tracking_enabled,
    custom_tracking_subdomain: settings.custom_tracking_subdomain,
    cname_verified: m.domain_cname_verified,
  });
  const rendered = await renderAtDelivery(config, m.html, m.text, data);
  const parts = instrument(
    { html: rendered.html, text: rendered.text },
    email.id,
    {
      opens: m.settings.track_opens ?? settings.track_opens,
      clicks: m.settings.track_clicks ?? settings.track_clicks,
      unsubscribe,
      unsubscribeHtml: settings.track_unsubscribe_html_enabled ? settings.track_unsubscribe_html : null,
      unsubscribePlain: settings.track_unsubscribe_plain_enabled ? settings.track_unsubscribe_plain : null,
    },
    links,
  );
  const listUnsubscribe = m.list_unsubscribe ?? (unsubscribe ? `<${unsubscribeUrl(links, email.id)}>` : null);
  const messageId = email.smtp_message_id;
  const first = email.position === 0;
  const built = await buildMime({
    messageId,
    from: { email: m.from_email, name: m.from_name },
    to: { email: email.to_email, name: email.to_name },
    // The message's cc and bcc, less those suppressed since it was accepted (engines/delivery/delivery.batch.ts).
    cc: first ? m.cc : [],
    bcc: first ? m.bcc : [],
    replyTo: m.reply_to,
    subject: email.subject,
    html: parts.html,
    text: parts.text,
    attachments: p.attachments,
    headers: m.headers,
    inReplyTo: m.in_reply_to,
    references: m.references,
    listUnsubscribe,
    oneClick: !!listUnsubscribe && listUnsubscribe.includes('<https://'),
    precedenceBulk: m.precedence_bulk ?? settings.precedence_bulk,
    // VERP: a bounce that comes back names the email it is about. The domain's own return-path host
    // only once its CNAME is verified (is_dns_active); until then RETURN_PATH_TARGET itself, where
    // bounces still reach us (a host with no CNAME would lose them).
    returnPath: `bounces+${email.id}@${
      m.domain_dns_active ? `${settings.return_path_subdomain}.${m.domain_name}` : config.RETURN_PATH_TARGET.toLowerCase()
    }`,
    dkim: { domainName: m.domain_name, keySelector: m.dkim_selector, privateKey: p.privateKey },
  });
  return { ...built, messageId, html: parts.html, text: parts.text };
}
