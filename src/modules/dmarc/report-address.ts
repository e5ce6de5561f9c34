import type { Config } from '../../config/index.js';

/**
 * Every monitor has its own address for aggregate reports, `dmarc+<key>@<DMARC_REPORT_DOMAIN>`,
 * which its default wanted record names in `rua`. The SMTP role takes mail to it without a
 * login. Because that domain is not the monitored one, receivers check that it agrees to get the
 * domain's reports (RFC 7489 7.1): the operator publishes `*._report._dmarc.<report domain>`
 * TXT "v=DMARC1" (docs/configuration.md, DMARC_REPORT_DOMAIN).
 */
const ADDRESS = /^dmarc\+([a-z0-9]{16})@(.+)$/i;

export const reportDomain = (config: Pick<Config, 'DMARC_REPORT_DOMAIN' | 'INBOUND_MX_HOST'>) =>
  (config.DMARC_REPORT_DOMAIN ?? config.INBOUND_MX_HOST).toLowerCase();

export const reportAddress = (config: Pick<Config, 'DMARC_REPORT_DOMAIN' | 'INBOUND_MX_HOST'>, key: string) =>
  `dmarc+${key}@${reportDomain(config)}`;

/** The monitor key an address names, or null when it is no report address of this service. */
export function reportKeyOf(config: Pick<Config, 'DMARC_REPORT_DOMAIN' | 'INBOUND_MX_HOST'>, address: string): string | null {
  const m = ADDRESS.exec(address.trim());
  if (!m || m[2].toLowerCase() !== reportDomain(config)) return null;
  return m[1].toLowerCase();
}

/** The record a new monitor suggests: monitoring only, reports to the monitor's address. */
export const defaultWantedRecord = (config: Pick<Config, 'DMARC_REPORT_DOMAIN' | 'INBOUND_MX_HOST'>, key: string) =>
  `v=DMARC1; p=none; rua=mailto:${reportAddress(config, key)}`;
