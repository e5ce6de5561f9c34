/**
 * Why a receiver did not take an email, in a few classes an operator can act on and a metric can
 * carry as a label (postbox_email_deliveries_total{reason}). Read from the RFC 3463 enhanced status
 * code when the answer has one, else from its basic code and words; an answer with no SMTP code
 * at all is a connection failure (refused, timed out, no MX, TLS).
 */
export type DeliveryReason = 'none' | 'connection' | 'rate_limited' | 'mailbox_full' | 'unknown_recipient' | 'policy' | 'content' | 'other';

const ENHANCED = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;
const BASIC = /^\s*([245]\d\d)\b/;
const RATE_WORDS = /rate.?limit|too many|try again later|throttl|temporarily deferred|slow down/i;

/** Reads at most the first 512 characters of the answer: enough for its codes and first words. */
export function deliveryReason(status: string, response: string | null): DeliveryReason {
  if (status === 'delivered' || status === 'suppressed' || status === 'sent') return 'none';
  const text = (response ?? '').slice(0, 512);
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
