import { randomBytes } from 'node:crypto';
import { twilioSignature } from '../../src/modules/sms/sms.provider.js';
import type { TestServer } from '../support/server.js';

/** Twilio's side of the inbound webhook, for the tests: a signed form POST to our route. */

export const TWILIO_AUTH_TOKEN = 'twilio-test-auth-token-0123456789';
export const TWILIO_ENV = {
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'ACtest',
  TWILIO_AUTH_TOKEN,
  WEBHOOK_ALLOW_PRIVATE: 'true',
};
export const INBOUND_PATH = '/sms/provider/twilio/inbound';
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export const messageSid = () => `SM${randomBytes(16).toString('hex')}`;

/** The fields Twilio posts for an incoming text (the ones we read, plus a few we ignore). */
export function inboundFields(to: string, from: string, text: string, sid = messageSid()): Record<string, string> {
  return { MessageSid: sid, SmsSid: sid, AccountSid: 'ACtest', From: from, To: to, Body: text, NumMedia: '0', FromCountry: 'US' };
}

/**
 * Posts a text as Twilio does: signed over the URL Twilio was given (our PUBLIC_URL, which is not
 * the address the test connects to) and the fields. `signature` overrides the header.
 */
export async function postInbound(
  s: TestServer,
  fields: Record<string, string>,
  opts: { signature?: string | null; signedFields?: Record<string, string>; signedUrl?: string } = {},
) {
  const signedUrl = opts.signedUrl ?? `${s.app.services.config.PUBLIC_URL}${INBOUND_PATH}`;
  const signature = opts.signature === undefined ? twilioSignature(TWILIO_AUTH_TOKEN, signedUrl, opts.signedFields ?? fields) : opts.signature;
  const res = await fetch(`${s.url}${INBOUND_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}
