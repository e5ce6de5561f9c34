import type { EntityManager } from '@mikro-orm/postgresql';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { newId } from '../../src/lib/ids.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Helpers of the webhook engine tests: webhooks through the API, the engine driven by hand. */

/**
 * The bed of a test that drives the engine by hand: the api role alone (so only the test's own
 * ticks run the engine), with private webhook addresses allowed, a receiver, and a domain.
 */
export async function startEngineBed(): Promise<{ s: TestServer; receiver: Receiver; accountId: string; domainId: string }> {
  const s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, roles: ['api'] });
  const receiver = await startReceiver();
  return { s, receiver, accountId: await accountIdOf(s), domainId: (await seedDomain(s)).id };
}

export async function stopEngineBed(bed: { s: TestServer; receiver: Receiver }): Promise<void> {
  await bed.receiver.close();
  await bed.s.close();
}

export function sql<T = any>(s: TestServer, query: string, params: unknown[] = []): Promise<T[]> {
  return (s.app.services.orm.em.fork() as EntityManager).execute(query, params as never[]);
}

/**
 * A webhook made through POST /v1/webhooks (the receiver answers its test request), whose
 * secret the receiver then verifies requests to `path` with.
 */
export async function createWebhook(
  s: TestServer,
  receiver: Receiver,
  opts: { domainId: string; events: string[]; path: string; token?: string },
): Promise<{ id: string; secret: string }> {
  receiver.secretFor('*', s.app.services.config.WEBHOOK_TEST_SECRET);
  const res = await s.rest('POST', '/webhooks', {
    token: opts.token,
    body: { url: receiver.url(opts.path), name: `hook ${opts.path}`, events: opts.events, domain_id: opts.domainId, enabled: true },
  });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.text}`);
  receiver.secretFor(opts.path, res.body.data.secret);
  return { id: res.body.data.id, secret: res.body.data.secret };
}

/** An internal event, as a producer would record it. */
export async function insertEvent(
  s: TestServer,
  e: { account_id: string | null; domain_id: string | null; type: string; payload?: Record<string, unknown>; created_at?: Date },
): Promise<string> {
  const id = newId();
  await sql(s, `insert into domain_events (id, account_id, domain_id, type, payload, created_at) values (?, ?, ?, ?, ?::jsonb, ?)`, [
    id,
    e.account_id,
    e.domain_id,
    e.type,
    JSON.stringify(e.payload ?? {}),
    (e.created_at ?? new Date()).toISOString(),
  ]);
  return id;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  created_at: Date;
}

export function deliveriesOf(s: TestServer, webhookId: string): Promise<DeliveryRow[]> {
  return sql<DeliveryRow>(s, `select * from webhook_deliveries where webhook_id = ? order by created_at, id`, [webhookId]);
}

export async function attemptsOf(s: TestServer, deliveryId: string) {
  return sql(s, `select * from webhook_attempts where delivery_id = ? order by attempted_at, id`, [deliveryId]);
}

export async function webhookRow(s: TestServer, id: string) {
  const [row] = await sql(s, `select * from webhooks where id = ?`, [id]);
  return row;
}

/** The controllable clock: the retry is made due now instead of waiting for it. */
export async function makeDue(s: TestServer, deliveryId: string): Promise<void> {
  await sql(s, `update webhook_deliveries set next_attempt_at = now() - interval '1 second' where id = ?`, [deliveryId]);
}

/**
 * Runs engine ticks until `done` holds. The worker may run ticks of its own meanwhile (skip
 * locked shares the work), so the outcome is waited for, not assumed after one tick.
 */
export async function driveUntil(s: TestServer, done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runTick(s.app.services);
    if (await done()) return;
    if (Date.now() > deadline) throw new Error('webhook engine: condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
