/**
 * Why a receiver did not take an email, in a few classes an operator can act on and a metric can
 * carry as a label (postbox_email_deliveries_total{reason}). Read from the RFC 3463 enhanced status
 * code when the answer has one, else from its basic code and words; an answer with no SMTP code
 * at all is a connection failure (refused, timed out, no MX, TLS).
 */
export type DeliveryReason = 'none' | 'connection' | 'rate_limited' | 'mailbox_full' | 'unknown_recipient' | 'policy' | 'content' | 'other';

/**
 * The large mailbox providers' sender requirements an answer says the email failed (Gmail's,
 * Microsoft's, Yahoo's and Apple's published codes and texts): what the sender has to mend.
 */
export type SenderRequirement = 'authentication' | 'dmarc_alignment' | 'one_click_unsubscribe' | 'spam_rate' | 'reverse_dns' | 'tls' | 'blocklisted';

/** A refusal or deferral read for people: its class, the requirement it names, the provider, and what to do. */
export interface DeliveryDiagnosis {
  reason: DeliveryReason;
  requirement: SenderRequirement | null;
  /** The provider whose words the answer carries (gmail, microsoft, yahoo, apple), when they say so. */
  provider: string | null;
  explanation: string;
}

/** Only the answer's first characters are read: its codes and first words, whatever its length. */
const READ = 512;

const ENHANCED = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;
const BASIC = /^\s*([245]\d\d)\b/;
const RATE_WORDS = /rate.?limit|too many|try again later|throttl|temporarily deferred|slow down/i;

/** The class of an answer (see DeliveryReason); `status` is the email's outcome. */
export function deliveryReason(status: string, response: string | null): DeliveryReason {
  if (status === 'delivered' || status === 'suppressed' || status === 'sent') return 'none';
  const text = (response ?? '').slice(0, READ);
  const basic = BASIC.exec(text)?.[1];
  const enhanced = ENHANCED.exec(text);
  if (!basic && !enhanced) return 'connection';
  if (basic === '421' || (enhanced && enhanced[2] === '7' && enhanced[3] === '28') || RATE_WORDS.test(text)) return 'rate_limited';
  if (enhanced) {
    const [, , subject, detail] = enhanced;
    if (subject === '2' && detail === '2') return 'mailbox_full';
    if (subject === '1') return 'unknown_recipient';
    if (subject === '7') return 'policy';
    if (subject === '6') return 'content';
    if (subject === '4') return 'connection';
  }
  if (basic === '452' || basic === '552') return 'mailbox_full';
  if (basic === '550' || basic === '551' || basic === '553') return 'unknown_recipient';
  if (basic === '554') return 'policy';
  return 'other';
}

/**
 * The requirements, first match wins: DMARC before authentication (Gmail answers 5.7.26 for
 * both, in other words), a block list before reputation. Codes are Gmail's x.7.2x/x.7.3x,
 * Microsoft's 5.7.515 and S3140/S3150 and 4.7.650, Yahoo's TSS04 and 5.7.9 texts.
 */
const REQUIREMENTS: [SenderRequirement, RegExp][] = [
  ['dmarc_alignment', /dmarc|\b[45]\.7\.32\b|(isn't|is not|not) aligned/i],
  ['authentication', /\b[45]\.7\.(26|27|30)\b|\b5\.7\.515\b|unauthenticated|not authenticated|authenticate with (either )?spf|(does not|doesn't|did not) pass (spf|dkim)|spf (check )?fail|dkim (check )?fail|authentication level/i],
  ['one_click_unsubscribe', /one.?click unsubscribe|list-unsubscribe/i],
  ['tls', /\b[45]\.7\.29\b|over a tls connection|must issue a starttls|tls (is )?required|requires? (tls|encryption)/i],
  ['reverse_dns', /\b[45]\.7\.2[35]\b|reverse dns|\bptr\b|\brdns\b/i],
  ['blocklisted', /\bS3(140|150)\b|block ?list|blacklist|spamhaus|\bdnsbl\b|\brbl\b|\b5\.7\.(511|606)\b/i],
  ['spam_rate', /\b[45]\.7\.28\b|unsolicited|spam rate|user complaints|\bTSS0\d\b|\b4\.7\.650\b|reputation|likely spam/i],
];

const PROVIDERS: [string, RegExp][] = [
  ['gmail', /gsmtp|google\.com|gmail/i],
  ['microsoft', /outlook\.com|hotmail|microsoft|\bS3(140|150)\b/i],
  ['yahoo', /yahoo|\baol\b/i],
  ['apple', /icloud|apple\.com|\bme\.com\b/i],
];

const FOR_REQUIREMENT: Record<SenderRequirement, string> = {
  authentication:
    'The provider requires mail to pass SPF or DKIM for the sending domain. Check that the domain is verified in Postbox with its DKIM and return-path records published.',
  dmarc_alignment:
    "The From: address failed DMARC: its domain must match a domain that passed SPF or DKIM. Send from a verified domain with its DKIM record published, and check the domain's DMARC policy.",
  one_click_unsubscribe:
    'The provider requires bulk mail to offer one-click unsubscribe (List-Unsubscribe with List-Unsubscribe-Post, RFC 8058). Give bulk sends a list_unsubscribe.',
  spam_rate:
    'The provider is slowing or refusing this sender because of its reputation: recipients report its mail as spam, or its volume is unusual. Send only to people who asked for the mail, keep the complaint rate low, and raise volume gradually.',
  reverse_dns:
    'The sending IP address has no reverse DNS (PTR) name, or the name does not resolve back to it. Give the outbound address a PTR record that matches its EHLO name.',
  tls: 'The provider only accepts mail over an encrypted (TLS) connection.',
  blocklisted:
    'The sending IP address or domain is on a block list the provider uses. Check the blocklist monitor, mend the cause and ask the list for removal.',
};

const FOR_REASON: Record<DeliveryReason, string> = {
  none: 'The receiving server accepted the email.',
  connection: 'The receiving server could not be reached: no answer, a refused connection, no mail server for the domain, or a failed TLS handshake.',
  rate_limited: 'The receiving server asked the sender to slow down; the email is tried again later.',
  mailbox_full: "The recipient's mailbox is full or over its quota; it may accept mail later.",
  unknown_recipient: "The recipient's address does not exist at the receiving server. Check it for typos.",
  policy: 'The receiving server refused the email under its policy (the sender, its reputation or its authentication); its answer says which.',
  content: 'The receiving server refused what the email contains (its size, attachments or content).',
  other: 'The receiving server did not take the email; its answer says why.',
};

/**
 * An answer read for people: its class, the large providers' requirement it names, the provider,
 * and a plain explanation of what happened and what to do. `status` is the email's outcome.
 */
export function diagnose(status: string, response: string | null): DeliveryDiagnosis {
  const reason = deliveryReason(status, response);
  const text = (response ?? '').slice(0, READ);
  const requirement = reason === 'none' ? null : (REQUIREMENTS.find(([, re]) => re.test(text))?.[0] ?? null);
  const provider = PROVIDERS.find(([, re]) => re.test(text))?.[0] ?? null;
  return { reason, requirement, provider, explanation: requirement ? FOR_REQUIREMENT[requirement] : FOR_REASON[reason] };
}
