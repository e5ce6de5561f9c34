import { z } from 'zod';
import { apiSettings } from './api.js';
import { deliverySettings } from './delivery.js';
import { featureSettings } from './features.js';
import { loginSettings } from './logins.js';
import { serviceSettings } from './service.js';
import { smtpSettings } from './smtp.js';

/**
 * Every setting of the service, validated once at start, in groups of a file each. A setting's
 * description is its documentation: `npm run docs:config` writes docs/configuration.md from these
 * groups, and test/schema/configuration-doc.test.ts fails when a setting has none or the page is
 * stale.
 */
export const settingGroups = [
  { title: 'The service and its database', about: 'Where it listens and stores, its first start, its processes and their jobs.', settings: serviceSettings },
  { title: 'The API', about: 'What one request may ask for, and how requests are counted and accepted.', settings: apiSettings },
  { title: 'Domains, delivery and templates', about: 'The DNS records domains publish, how mail leaves, and the bounds of template rendering.', settings: deliverySettings },
  { title: 'The SMTP listener and untrusted input', about: 'The smtp role, and the bounds of what a stranger can send it or upload.', settings: smtpSettings },
  { title: 'Webhooks, verification, monitoring, retention and SMS', about: 'The engines behind those features.', settings: featureSettings },
  { title: 'Console logins', about: 'Sessions, passwords, login failure counters and invitations.', settings: loginSettings },
] as const;

export const configSchema = z.object({
  ...serviceSettings,
  ...apiSettings,
  ...deliverySettings,
  ...smtpSettings,
  ...featureSettings,
  ...loginSettings,
});

type Parsed = z.infer<typeof configSchema>;
/** The settings once defaults that depend on other settings are settled. */
export type Config = Omit<Parsed, 'DOMAIN_VERIFICATION' | 'WEBHOOK_ALLOW_PRIVATE'> & {
  DOMAIN_VERIFICATION: 'dns' | 'trust';
  WEBHOOK_ALLOW_PRIVATE: boolean;
  PUBLIC_URL: string;
  APP_SECRET: string;
};

export class ConfigError extends Error {}

/** Parses settings from an env-like object. APP_SECRET may still be absent here; boot fills it. */
export function parseConfig(env: Record<string, string | undefined> = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  if (result.data.SMS_PROVIDER === 'twilio' && (!result.data.TWILIO_ACCOUNT_SID || !result.data.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('Invalid settings:\n  SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  // The sandbox: with mail kept on the machine, domains need no DNS to send. Nothing ever leaves
  // it unverified, since `trust` cannot be combined with a transport that delivers.
  const capture = result.data.MAIL_TRANSPORT === 'capture';
  const verification = result.data.DOMAIN_VERIFICATION ?? (capture ? 'trust' : 'dns');
  if (verification === 'trust' && !capture) {
    throw new ConfigError('Invalid settings:\n  DOMAIN_VERIFICATION=trust needs MAIL_TRANSPORT=capture: mail leaves the machine only from domains verified through DNS');
  }
  return {
    ...result.data,
    DOMAIN_VERIFICATION: verification,
    WEBHOOK_ALLOW_PRIVATE: result.data.WEBHOOK_ALLOW_PRIVATE ?? verification === 'trust',
  };
}
