import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config/index.js';
import { newId } from '../../lib/ids.js';
import type { ReportedSmsStatus } from './sms.statuses.js';

/**
 * The SMS provider behind the service (SMS_PROVIDER): sending, and reading what the provider
 * sends back (status callbacks and inbound texts), which arrive at `/sms/provider/<name>/...`.
 */
export type SmsStatus = ReportedSmsStatus;

export interface SmsSendRequest {
  from: string;
  to: string;
  text: string;
  /** Where the provider reports status changes (absolute URL under PUBLIC_URL). */
  statusCallback: string;
}

export interface SmsSendResult {
  /** The provider's id of the message; status callbacks name it. */
  providerId: string;
  status: SmsStatus;
  errorType?: string | null;
  errorDescription?: string | null;
}

export interface SmsStatusUpdate {
  providerId: string;
  status: SmsStatus;
  errorType: string | null;
  errorDescription: string | null;
}

export interface SmsInboundText {
  providerId: string | null;
  from: string;
  to: string;
  text: string;
}

/** What the HTTP route hands the provider: the full public URL it was called at, headers, form fields. */
export interface ProviderRequest {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, string>;
}

export class SmsProviderError extends Error {
  constructor(
    message: string,
    /** true when sending again later may work (network, 5xx, 429). */
    readonly retryable: boolean,
    readonly errorType: string | null = null,
  ) {
    super(message);
  }
}

export interface SmsProvider {
  readonly name: 'capture' | 'twilio';
  send(req: SmsSendRequest): Promise<SmsSendResult>;
  /** A status callback, or null when its signature does not verify. */
  parseStatus(req: ProviderRequest): SmsStatusUpdate | null;
  /** An inbound text, or null when its signature does not verify. */
  parseInbound(req: ProviderRequest): SmsInboundText | null;
}

/** Offline: every text is delivered at once; nothing leaves the machine. */
export function captureProvider(): SmsProvider {
  return {
    name: 'capture',
    async send() {
      return { providerId: `cap_${newId(24)}`, status: 'delivered' };
    },
    // Nothing calls back a capture provider: its callbacks are refused like forged ones.
    parseStatus: () => null,
    parseInbound: () => null,
  };
}

/**
 * Twilio's request signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the auth token,
 * of the full URL followed by each POST field name and value, names sorted.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

function signedByTwilio(authToken: string, req: ProviderRequest): boolean {
  const header = req.headers['x-twilio-signature'];
  const given = Buffer.from(typeof header === 'string' ? header : '');
  const expected = Buffer.from(twilioSignature(authToken, req.url, req.body));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Twilio's message statuses, as ours. */
const TWILIO_STATUS: Record<string, SmsStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'failed',
  failed: 'failed',
  canceled: 'failed',
};

/** Twilio's Programmable Messaging REST API (2010-04-01 Messages resource). */
export function twilioProvider(config: Pick<Config, 'TWILIO_BASE_URL' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'SMS_TIMEOUT_MS'>): SmsProvider {
  const sid = config.TWILIO_ACCOUNT_SID ?? '';
  const token = config.TWILIO_AUTH_TOKEN ?? '';
  const base = config.TWILIO_BASE_URL.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
  return {
    name: 'twilio',
    async send(req) {
      let res: Response;
      try {
        res = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ From: req.from, To: req.to, Body: req.text, StatusCallback: req.statusCallback }),
          signal: AbortSignal.timeout(config.SMS_TIMEOUT_MS),
        });
      } catch (err) {
        throw new SmsProviderError(`twilio unreachable: ${(err as Error).message}`, true);
      }
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) {
        const retryable = res.status === 429 || res.status >= 500;
        const code = body.code != null ? String(body.code) : null;
        throw new SmsProviderError(String(body.message ?? `twilio answered ${res.status}`), retryable, code);
      }
      const status = TWILIO_STATUS[String(body.status ?? 'queued')] ?? 'queued';
      return {
        providerId: String(body.sid ?? ''),
        status,
        errorType: body.error_code != null ? String(body.error_code) : null,
        errorDescription: body.error_message != null ? String(body.error_message) : null,
      };
    },
    parseStatus(req) {
      if (!signedByTwilio(token, req) || !req.body.MessageSid) return null;
      const status = TWILIO_STATUS[req.body.MessageStatus ?? req.body.SmsStatus ?? ''];
      if (!status) return null;
      return {
        providerId: req.body.MessageSid,
        status,
        errorType: req.body.ErrorCode || null,
        errorDescription: req.body.ErrorMessage || (req.body.ErrorCode ? `Twilio error ${req.body.ErrorCode}` : null),
      };
    },
    parseInbound(req) {
      if (!signedByTwilio(token, req) || !req.body.From || !req.body.To) return null;
      return { providerId: req.body.MessageSid || req.body.SmsSid || null, from: req.body.From, to: req.body.To, text: req.body.Body ?? '' };
    },
  };
}

let cached: { key: string; provider: SmsProvider } | null = null;

/** The configured provider (one per process and configuration). */
export function smsProvider(config: Config): SmsProvider {
  const key = `${config.SMS_PROVIDER}|${config.TWILIO_BASE_URL}|${config.TWILIO_ACCOUNT_SID}`;
  if (cached?.key !== key) cached = { key, provider: config.SMS_PROVIDER === 'twilio' ? twilioProvider(config) : captureProvider() };
  return cached.provider;
}
