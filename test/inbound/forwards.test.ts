import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type Received, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from '../sending/helpers.js';

/**
 * Inbound forwards to email are no open relay: a copy goes only to an address the account has
 * shown control of (on one of its verified domains, or confirmed through a mailed link), from the
 * route's own return path, never to a suppressed address, and each copy counts like a send.
 * Mail arrives over a real SMTP session to the smtp role; copies go to a real local SMTP sink.
 */
let s: TestServer;
let sink: SmtpSink;
let receiver: Receiver;
let domain: { id: string; name: string };
/** inbound_forward.failed of `domain`, as a webhook of it gets them. */
let failures: EventTap;
let seq = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startReceiver();
  s = await startTestServer({
    roles: ['api', 'worker', 'smtp'],
    env: { SMTP_PORT: '0', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  domain = await seedDomain(s);
  failures = await tapEvents(s, receiver, { domainId: domain.id }, { types: ['inbound_forward.failed'] });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
  await receiver?.close();
});

const NOT_CONFIRMED = 'not forwarded: the address has not confirmed it accepts forwards (open the link mailed to it when the route was saved)';
const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true });
const subjectOf = (m: Received) => /^Subject: (.*)$/m.exec(m.raw)?.[1];
/** What the sink got for an address with this subject (the confirmation mail has its own subject). */
const copies = (to: string, subject: string) => sink.received.filter((m) => m.to.includes(to) && subjectOf(m) === subject);
const confirmationMails = (to: string) => sink.received.filter((m) => m.to.includes(to) && subjectOf(m) === 'Confirm forwarding of inbound mail');

async function route(forwards: string[], token?: string, domainId = domain.id) {
  const res = await s.rest('POST', '/inbound', {
    token,
    body: { domain_id: domainId, name: `desk ${++seq}`, forwards: forwards.map((value) => ({ type: 'email', value })) },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; address: string; forwards: Record<string, unknown>[] };
}

/** Sends a message to the route over SMTP; answers once the route's message row has settled. */
async function deliver(rt: { id: string; address: string }, subject: string) {
  const before = (await sql(s, 'select count(*)::int as n from inbound_messages where inbound_id = ?', [rt.id]))[0].n;
  const info = await mx().sendMail({ from: 'Alice <alice@sender.example>', to: rt.address, subject, text: 'Hello there.' });
  expect(info.response).toMatch(/^250 /);
  return until(async () => {
    const rows = await sql(s, `select * from inbound_messages where inbound_id = ? and status <> 'received' order by created_at`, [rt.id]);
    return rows.length > before ? rows[rows.length - 1] : null;
  });
}

/** The inbound_forward.failed events of one message a tap got, once every event written so far is delivered. */
const failedEvents = async (messageId: string, tap = failures) =>
  (await tap.settle()).filter((e) => e.type === 'inbound_forward.failed' && e.data.inbound_message_id === messageId);

async function confirmationLink(to: string): Promise<string> {
  await until(async () => confirmationMails(to).length > 0, 15_000, `confirmation mail to ${to}`);
  const parsed = await simpleParser(confirmationMails(to)[0].raw);
  const link = /(https?:\/\/\S+\/confirm\/inbound-forward\?token=\S+)/.exec(parsed.text ?? '')?.[1];
  if (!link) throw new Error('no link in the confirmation mail');
  return link;
}

const open = async (link: string) => {
  const u = new URL(link);
  const res = await fetch(`${s.url}${u.pathname}${u.search}`);
  return { status: res.status, text: await res.text(), cache: res.headers.get('cache-control') };
};

const gqlForwards = async (id: string, token?: string) =>
  (await s.gql(`query($id: ID!) { inbound(inbound_id: $id) { forwards { value confirmation } } }`, { id }, token)).body.data.inbound.forwards;

describe('email forwards', () => {
  it('does not forward to an unconfirmed outside address until its owner opens the mailed link', async () => {
    const outside = `desk${++seq}@elsewhere.example`;
    const rt = await route([outside]);
    // /v1 keeps COMPAT.md's forward shape; GraphQL tells the state.
    expect(Object.keys(rt.forwards[0]).sort()).toEqual(['id', 'type', 'value']);
    expect(await gqlForwards(rt.id)).toEqual([{ value: outside, confirmation: 'pending' }]);
    const link = await confirmationLink(outside);

    const first = await deliver(rt, 'Before confirmation');
    expect(first).toMatchObject({ status: 'failed', reason: `email ${outside}: ${NOT_CONFIRMED}` });
    expect(await failedEvents(first.id)).toHaveLength(1);
    expect(copies(outside, 'Before confirmation')).toEqual([]);

    // Saving the route again within the hour does not mail the address again.
    expect((await s.rest('PUT', `/inbound/${rt.id}`, { body: { forwards: [{ type: 'email', value: outside }] } })).status).toBe(200);

    const opened = await open(link);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(outside);
    expect(opened.cache).toBe('no-store');
    expect((await open(link)).status).toBe(200);
    expect(await gqlForwards(rt.id)).toEqual([{ value: outside, confirmation: 'confirmed' }]);

    const second = await deliver(rt, 'After confirmation');
    expect(second).toMatchObject({ status: 'forwarded', reason: null });
    const copy = copies(outside, 'After confirmation');
    expect(copy).toHaveLength(1);
    // The envelope sender is the route's domain's return path, not the original sender.
    expect(copy[0].from).toBe(`bounces@mta.${domain.name}`);
    expect(confirmationMails(outside)).toHaveLength(1);
  });

  it('refuses a tampered link, and a confirmation holds for its account only', async () => {
    const outside = `shared${++seq}@elsewhere.example`;
    const ours = await route([outside]);
    const link = await confirmationLink(outside);
    const bad = new URL(link);
    bad.searchParams.set('token', `${bad.searchParams.get('token')}x`);
    expect((await open(bad.toString())).status).toBe(400);
    expect((await open(link)).status).toBe(200);
    expect(await gqlForwards(ours.id)).toEqual([{ value: outside, confirmation: 'confirmed' }]);

    const other = await createAccount(s, 'Other forwarder');
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirs = await route([outside], other.token, theirDomain.id);
    expect(await gqlForwards(theirs.id, other.token)).toEqual([{ value: outside, confirmation: 'pending' }]);
    const m = await deliver(theirs, 'Their copy');
    expect(m.status).toBe('failed');
    expect(copies(outside, 'Their copy')).toEqual([]);
    await until(async () => confirmationMails(outside).length === 2, 15_000, 'the second account\'s confirmation mail');
  });

  it('forwards without confirmation to an address on a verified domain of the account (or a subdomain)', async () => {
    const team = `team${++seq}@${domain.name}`;
    const ops = `ops${seq}@eu.${domain.name}`;
    const rt = await route([team, ops]);
    expect(await gqlForwards(rt.id)).toEqual([
      { value: team, confirmation: 'domain' },
      { value: ops, confirmation: 'domain' },
    ]);
    const m = await deliver(rt, 'Internal');
    expect(m).toMatchObject({ status: 'forwarded', reason: null });
    for (const to of [team, ops]) {
      expect(copies(to, 'Internal')).toHaveLength(1);
      expect(copies(to, 'Internal')[0].from).toBe(`bounces@mta.${domain.name}`);
      expect(confirmationMails(to)).toEqual([]);
    }
  });

  it('skips a suppressed address without failing the others', async () => {
    const blocked = `blocked${++seq}@${domain.name}`;
    const fine = `fine${seq}@${domain.name}`;
    expect((await s.rest('POST', '/suppressions/blocklist', { body: { domain_id: domain.id, recipients: [blocked] } })).status).toBe(201);
    const rt = await route([blocked, fine]);
    const m = await deliver(rt, 'Suppression');
    expect(m).toMatchObject({ status: 'forwarded', reason: `email ${blocked}: skipped: suppressed (blocklisted)` });
    expect(await failedEvents(m.id)).toEqual([]);
    expect(copies(blocked, 'Suppression')).toEqual([]);
    expect(copies(fine, 'Suppression')).toHaveLength(1);
  });

  it('counts each copy against the daily quota, and forwards nothing once it is used up', async () => {
    const other = await createAccount(s, 'Quota forwarder');
    const theirDomain = await seedDomain(s, { token: other.token });
    const a = `a${++seq}@${theirDomain.name}`;
    const b = `b${seq}@${theirDomain.name}`;
    const rt = await route([a, b], other.token, theirDomain.id);
    const theirFailures = await tapEvents(s, receiver, { domainId: theirDomain.id }, { types: ['inbound_forward.failed'], token: other.token });
    const hits = async () => (await sql(s, 'select hits from api_quota_counters where account_id = ?', [other.id]))[0]?.hits ?? 0;
    const before = await hits();
    expect((await deliver(rt, 'Metered')).status).toBe('forwarded');
    expect((await hits()) - before).toBe(2);

    await sql(s, 'update api_quota_counters set hits = ? where account_id = ?', [s.app.services.config.API_QUOTA_PER_DAY, other.id]);
    const m = await deliver(rt, 'Over quota');
    expect(m.status).toBe('failed');
    expect(m.reason).toBe(`email ${a}: not forwarded: the daily API quota is used up; email ${b}: not forwarded: the daily API quota is used up`);
    expect(copies(a, 'Over quota')).toEqual([]);
    expect(await failedEvents(m.id, theirFailures)).toHaveLength(1);
  });
});
