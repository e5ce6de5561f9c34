import type { Config } from '../../config/index.js';
import type { AppServices } from '../../core/services.js';
import { isOurReturnPath } from './bounce.js';
import { reportKeyOf } from '../../modules/dmarc/report-address.js';
import { hasInboundRoute } from '../inbound/inbound.receive.js';
import { SmtpRepository } from './smtp.repository.js';

/**
 * What mail from a session that did not log in may be for: a report coming back (a DSN to one of
 * our return-path addresses, or an ARF complaint to FEEDBACK_ADDRESS), a DMARC aggregate report
 * to a monitor's report address, or an inbound route. Anything else needs AUTH: the listener is
 * no open relay.
 */
export type Ingress = 'report' | 'inbound' | 'dmarc';

export async function ingressOf(services: AppServices, address: string): Promise<Ingress | null> {
  const feedback = services.config.FEEDBACK_ADDRESS?.toLowerCase();
  if (feedback && address.toLowerCase() === feedback) return 'report';
  if (await isOurReturnPath(services.orm.em.fork(), address, services.config.RETURN_PATH_TARGET)) return 'report';
  if (await dmarcMonitorOf(services, address)) return 'dmarc';
  if (await hasInboundRoute(services, address)) return 'inbound';
  return null;
}

/** The DMARC monitor whose report address this is (dmarc/report-address.ts), if any. */
export async function dmarcMonitorOf(services: AppServices, address: string): Promise<string | null> {
  const key = reportKeyOf(services.config, address);
  if (!key) return null;
  return new SmtpRepository(services.orm.em.fork()).dmarcMonitorId(key);
}

type SizeSettings = Pick<
  Config,
  'SMTP_MAX_MESSAGE_BYTES' | 'SMTP_MAX_REPORT_BYTES' | 'SMTP_MAX_DMARC_BYTES' | 'SMTP_MAX_INBOUND_BYTES' | 'SMTP_UNAUTHENTICATED_BUFFER_BYTES'
>;

/**
 * The largest message a session that did not log in may send, by what it is for:
 * - report (DSN, ARF): 1 MB by default. The machine-readable part is a few hundred bytes; what
 *   makes a report big is the returned original, which MTAs usually cut (Postfix sends 50 KB).
 * - dmarc: 4 MB by default. Aggregate reports come zipped or gzipped and XML packs 10 times or
 *   more, so 4 MB (base64 included) holds a report of DMARC_MAX_REPORT_BYTES (10 MB), the most the
 *   reports of one mail may unpack to (dmarc/report-reader.ts has the mail's other limits).
 * - inbound: 36 MB by default, so a message with one attachment of the inbound attachment limit
 *   (25 MB decoded, MAX_INBOUND_ATTACHMENT_BYTES) fits: base64 with line breaks is 34.2 MB.
 * Never more than SMTP_MAX_MESSAGE_BYTES, nor than the shared budget of such sessions
 * (SMTP_UNAUTHENTICATED_BUFFER_BYTES), or such a message could never be taken whole.
 */
export function sizeLimitOf(config: SizeSettings, ingress: Ingress): number {
  const own = { report: config.SMTP_MAX_REPORT_BYTES, dmarc: config.SMTP_MAX_DMARC_BYTES, inbound: config.SMTP_MAX_INBOUND_BYTES }[ingress];
  return Math.min(own, config.SMTP_MAX_MESSAGE_BYTES, config.SMTP_UNAUTHENTICATED_BUFFER_BYTES);
}

export const INGRESS_NAME: Record<Ingress, string> = { report: 'reports', dmarc: 'DMARC reports', inbound: 'inbound mail' };
