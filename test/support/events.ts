import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/webhook.inputs.js';
import { SMS_WEBHOOK_EVENTS } from '../../src/modules/sms-webhooks/sms-webhook.inputs.js';
import type { Receiver } from './receiver.js';
import type { TestServer } from './server.js';

/**
 * Internal events observed where a customer observes them: as webhook deliveries.
 *
 * domain_events is an outbox: the webhook engine deletes each event in the transaction that turns
 * it into deliveries, and the worker role runs an engine tick every few seconds, so a test that
 * reads the table after an action races that tick. A tap is instead a webhook made through the
 * API (POST /v1/webhooks, or /v1/sms-webhooks for `sms.*`) BEFORE the action, since a webhook gets
 * only the events that happen after it was made, posting to a local receiver; the test runs
 * engine ticks itself until what it waits for has arrived. The server needs
 * WEBHOOK_ALLOW_PRIVATE=true (the receiver listens on 127.0.0.1).
 *
 * Bodies are the parsed JSON the engine posts: `{type, created_at, data}` for email events (`data`
 * is the event's payload), `{type, sms_number_id, created_at, sms_webhook_id, url, data}` for SMS
 * events (engines/webhooks/event.payload.ts deliveryBody).
 */
export interface EventTap {
  /** The webhook's id. */
  id: string;
  /** The bodies delivered so far (its creation's test request left out), in the order the events happened. */
  bodies(): any[];
  /** Runs engine ticks until `done` holds for the bodies; returns them. */
  until(done: (bodies: any[]) => boolean, timeoutMs?: number): Promise<any[]>;
  /**
   * Runs engine ticks until the engine is idle (no event waits, no dispatched batch is still being
   * posted, no delivery is due), so every event written before the call has been delivered; returns
   * the bodies. What a test asserts did NOT happen is asserted after this.
   */
  settle(timeoutMs?: number): Promise<any[]>;
}

/** Every kind an email webhook may subscribe to (SPEC.md "Email event kinds"). */
export const EMAIL_EVENT_KINDS: readonly string[] = WEBHOOK_EVENTS;
/** Every kind an SMS webhook may subscribe to (SPEC.md "SMS events"). */
export const SMS_EVENT_KINDS: readonly string[] = SMS_WEBHOOK_EVENTS;

let taps = 0;

/** Email events of a domain (and the account-wide and platform-wide ones that reach it), or `sms.*` of an SMS number. */
export async function tapEvents(
  s: TestServer,
  receiver: Receiver,
  on: { domainId: string } | { smsNumberId: string },
  opts: { types?: readonly string[]; token?: string } = {},
): Promise<EventTap> {
  const path = `/event-tap-${++taps}`;
  const sms = 'smsNumberId' in on;
  const res = await s.rest('POST', sms ? '/sms-webhooks' : '/webhooks', {
    token: opts.token,
    body: {
      url: receiver.url(path),
      name: `event tap ${taps}`,
      events: opts.types ?? (sms ? SMS_EVENT_KINDS : EMAIL_EVENT_KINDS),
      enabled: true,
      ...(sms ? { sms_number_id: on.smsNumberId } : { domain_id: on.domainId }),
    },
  });
  if (res.status !== 201) throw new Error(`event tap: webhook create failed: ${res.status} ${res.text}`);

  const key = (b: any) => String(b.created_at).replace(' ', 'T'); // sender_identity.verified has a plain created_at
  const bodies = () =>
    receiver
      .received(path)
      .map((r) => r.json)
      .filter((b) => b?.type !== 'webhook.test')
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const drive = async (done: () => Promise<boolean>, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await runTick(s.app.services);
      if (await done()) return bodies();
      if (Date.now() > deadline) throw new Error(`event tap ${path}: ${what} not met within ${timeoutMs} ms (${bodies().length} delivered)`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    id: res.body.data.id,
    bodies,
    until: (done, timeoutMs = 20_000) => drive(async () => done(bodies()), timeoutMs, 'condition'),
    settle: (timeoutMs = 20_000) => drive(() => engineIdle(s), timeoutMs, 'engine idle'),
  };
}

/** No event waits in the outbox, no dispatched batch is still being posted (its lease row), no delivery is due. */
export async function engineIdle(s: TestServer): Promise<boolean> {
  const [row] = (await s.app.services.orm.em.fork().execute(
    `select (select count(*) from domain_events)::int as waiting,
            (select count(*) from webhook_dispatch_leases)::int as posting,
            (select count(*) from webhook_deliveries where state = 'pending' and next_attempt_at <= now())::int as due`,
  )) as { waiting: number; posting: number; due: number }[];
  return row.waiting === 0 && row.posting === 0 && row.due === 0;
}
