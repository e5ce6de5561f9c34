import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { twilioSignature } from '../../src/modules/sms/sms.provider.js';

/**
 * A local stand-in for Twilio's Programmable Messaging API: `POST
 * /2010-04-01/Accounts/{sid}/Messages.json` (Basic auth, form body From/To/Body/StatusCallback)
 * answers 201 like Twilio, then reports the message's progress to its StatusCallback as Twilio
 * does: form-encoded, signed with X-Twilio-Signature.
 */
export interface SentMessage {
  sid: string;
  from: string;
  to: string;
  body: string;
  statusCallback: string;
}

export interface Callback {
  sid: string;
  status: string;
  /** What our service answered. */
  answered: number;
}

/** What happens to texts sent to one number. */
export interface Plan {
  /** The statuses reported, in order; default sent then delivered. */
  reports?: { status: string; errorCode?: string }[];
  /** Refuse the send itself: this HTTP status and Twilio error code, `times` times (default always). */
  refuse?: { status: number; code: number; message: string; times?: number };
}

export interface FakeTwilio {
  url: string;
  sid: string;
  token: string;
  /** Test-server settings that point the service here. */
  env: Record<string, string>;
  messages: SentMessage[];
  callbacks: Callback[];
  /** Send attempts refused so far, per number. */
  refused: Map<string, number>;
  plan(to: string, plan: Plan): void;
  waitFor<T>(probe: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeTwilio(): Promise<FakeTwilio> {
  const sid = `AC${randomBytes(16).toString('hex')}`;
  const token = randomBytes(16).toString('hex');
  const plans = new Map<string, Plan>();
  const messages: SentMessage[] = [];
  const callbacks: Callback[] = [];
  const refused = new Map<string, number>();

  async function report(m: SentMessage, status: string, errorCode?: string) {
    const params: Record<string, string> = {
      AccountSid: sid,
      ApiVersion: '2010-04-01',
      From: m.from,
      To: m.to,
      MessageSid: m.sid,
      SmsSid: m.sid,
      MessageStatus: status,
      SmsStatus: status,
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    };
    const res = await fetch(m.statusCallback, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(token, m.statusCallback, params) },
      body: new URLSearchParams(params),
    });
    await res.text();
    callbacks.push({ sid: m.sid, status, answered: res.status });
  }

  const server = http.createServer(async (req, res) => {
    const path = `/2010-04-01/Accounts/${sid}/Messages.json`;
    if (req.method !== 'POST' || req.url !== path) return json(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    const expected = `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    if (!form.From || !form.To || !form.Body) return json(res, 400, { code: 21602, message: 'Message body is required.', status: 400 });
    const plan = plans.get(form.To) ?? {};
    const n = refused.get(form.To) ?? 0;
    if (plan.refuse && (plan.refuse.times === undefined || n < plan.refuse.times)) {
      refused.set(form.To, n + 1);
      return json(res, plan.refuse.status, { code: plan.refuse.code, message: plan.refuse.message, status: plan.refuse.status });
    }
    const m: SentMessage = { sid: `SM${randomBytes(16).toString('hex')}`, from: form.From, to: form.To, body: form.Body, statusCallback: form.StatusCallback };
    messages.push(m);
    json(res, 201, {
      sid: m.sid,
      account_sid: sid,
      from: m.from,
      to: m.to,
      body: m.body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
      error_message: null,
      date_created: new Date().toUTCString(),
      uri: `${path.slice(0, -5)}/${m.sid}.json`,
    });
    // Reported after the answer, as Twilio does; in order, one at a time.
    if (!m.statusCallback) return;
    res.on('finish', async () => {
      for (const r of plan.reports ?? [{ status: 'sent' }, { status: 'delivered' }]) {
        try {
          await report(m, r.status, r.errorCode);
        } catch {
          callbacks.push({ sid: m.sid, status: r.status, answered: 0 });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    sid,
    token,
    env: { SMS_PROVIDER: 'twilio', TWILIO_BASE_URL: url, TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token },
    messages,
    callbacks,
    refused,
    plan: (to, plan) => void plans.set(to, plan),
    async waitFor(probe, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = probe();
        if (v) return v as never;
        if (Date.now() > deadline) throw new Error('fake Twilio: condition not met in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
