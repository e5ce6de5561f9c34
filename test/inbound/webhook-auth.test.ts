import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { attemptsOf, deliveriesOf, driveUntil, makeDue, sql } from '../webhooks/engine-support.js';

/**
 * Inbound mail forwarded to a webhook: the SPF, DKIM and DMARC verdicts of the SMTP receipt in
 * `data.auth`, and the forward delivered by the webhook engine (retries, webhook log).
 */
let s: TestServer;
let r: Receiver;
let domain: { id: string; name: string };
let seq = 0;

const key = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const signer = key();
const stranger = key();
const pem = (k: ReturnType<typeof key>) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const published = (k: ReturnType<typeof key>) => k.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

beforeAll(async () => {
  r = await startReceiver();
  s = await startTestServer({
    roles: ['api', 'worker', 'smtp'],
    env: { SMTP_PORT: '0', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  domain = await seedDomain(s);
  // signed.example lets the test's own address (127.0.0.1) send, signs with `sel`, and asks receivers to reject failures.
  s.dns.add('signed.example', { type: 'TXT', data: 'v=spf1 ip4:127.0.0.1 -all' });
  s.dns.add('sel._domainkey.signed.example', { type: 'TXT', data: `v=DKIM1; k=rsa; p=${published(signer)}` });
  s.dns.add('_dmarc.signed.example', { type: 'TXT', data: 'v=DMARC1; p=reject' });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await r?.close();
});

/** Another mail server handing a message to the SMTP listener, as 127.0.0.1, optionally DKIM-signing it. */
const mx = (privateKey?: string) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: s.app.smtpPort!,
    secure: false,
    ignoreTLS: true,
    name: 'mail.signed.example',
    ...(privateKey ? { dkim: { domainName: 'signed.example', keySelector: 'sel', privateKey } } : {}),
  });

async function hookRoute() {
  const path = `/in-auth-${++seq}`;
  const res = await s.rest('POST', '/inbound', {
    body: { domain_id: domain.id, name: `auth ${seq}`, forwards: [{ type: 'webhook', value: r.url(path) }] },
  });
  expect(res.status).toBe(201);
  const route = res.body.data as { id: string; address: string; forwards: { id: string; secret: string }[] };
  r.secretFor(path, route.forwards[0].secret);
  return { path, route, webhookId: route.forwards[0].id };
}

describe('inbound webhooks carry SPF, DKIM and DMARC', () => {
  it('a signed message from an allowed address passes all three', async () => {
    const { path, route } = await hookRoute();
    const info = await mx(pem(signer)).sendMail({ from: 'alice@signed.example', to: route.address, subject: 'Signed', text: 'Hello' });
    expect(info.response).toMatch(/^250 /);
    const [req] = r.received(path);
    expect(req.verified).toBe(true);
    expect(req.json.data.auth).toEqual({
      spf: { result: 'pass', domain: 'signed.example' },
      dkim: [{ result: 'pass', domain: 'signed.example', selector: 'sel' }],
      dmarc: { result: 'pass', domain: 'signed.example', policy: 'reject' },
    });
  });

  it('a forged one (signed with another key, sent from an address SPF does not allow) fails all three', async () => {
    s.dns.add('forged.example', { type: 'TXT', data: 'v=spf1 ip4:192.0.2.1 -all' });
    s.dns.add('_dmarc.forged.example', { type: 'TXT', data: 'v=DMARC1; p=quarantine' });
    const { path, route } = await hookRoute();
    // Claims signed.example's signature with a key that is not the one it publishes.
    await mx(pem(stranger)).sendMail({ from: 'ceo@forged.example', to: route.address, subject: 'Wire money', text: 'Now' });
    const auth = r.received(path)[0].json.data.auth;
    expect(auth.spf).toEqual({ result: 'fail', domain: 'forged.example' });
    expect(auth.dkim).toEqual([{ result: 'fail', domain: 'signed.example', selector: 'sel' }]);
    expect(auth.dmarc).toEqual({ result: 'fail', domain: 'forged.example', policy: 'quarantine' });
  });
});

describe('inbound webhooks go through the webhook engine', () => {
  it('a failing receiver is retried with the same webhook-id, and each attempt is in the webhook log', async () => {
    const { path, route, webhookId } = await hookRoute();
    r.respond(path, { status: [500, 200] });
    const info = await mx().sendMail({ from: 'bob@signed.example', to: route.address, subject: 'Retry me', text: 'x' });
    // Still a 250: the message was received; the first attempt failed while the sender waited.
    expect(info.response).toMatch(/^250 /);
    const [d] = await deliveriesOf(s, webhookId);
    expect(d).toMatchObject({ type: 'inbound.message', state: 'pending', attempts: 1, last_status: 500 });
    const [m] = await sql(s, 'select id, status, reason from inbound_messages where inbound_id = ?', [route.id]);
    expect(d.event_id).toBe(m.id);
    expect(m).toMatchObject({ status: 'failed', reason: `webhook ${r.url(path)}: HTTP 500` });

    await makeDue(s, d.id);
    await driveUntil(s, async () => (await deliveriesOf(s, webhookId))[0].state === 'delivered');
    expect((await deliveriesOf(s, webhookId))[0]).toMatchObject({ state: 'delivered', attempts: 2, last_status: 200 });
    const got = r.received(path);
    expect(got.map((g) => g.answered)).toEqual([500, 200]);
    expect(got.every((g) => g.verified && g.headers['webhook-id'] === d.id && g.raw === d.body)).toBe(true);
    expect((await attemptsOf(s, d.id)).map((a: any) => [a.success, a.status])).toEqual([[false, 500], [true, 200]]);
  });

  it('removing the forward drops its target and pending retries', async () => {
    const { path, route, webhookId } = await hookRoute();
    r.respond(path, { status: 500 });
    await mx().sendMail({ from: 'bob@signed.example', to: route.address, subject: 'Drop me', text: 'x' });
    expect(await deliveriesOf(s, webhookId)).toHaveLength(1);
    const upd = await s.rest('PUT', `/inbound/${route.id}`, { body: { forwards: [{ type: 'webhook', value: r.url(`${path}-new`) }] } });
    expect(upd.status).toBe(200);
    expect(await deliveriesOf(s, webhookId)).toHaveLength(0);
    expect(await sql(s, 'select id from webhooks where id = ?', [webhookId])).toEqual([]);
  });
});
