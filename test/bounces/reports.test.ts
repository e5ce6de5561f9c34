import { processReport } from '../../src/engines/smtp/bounce.js';
import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { activityOf, settled, sql } from '../sending/helpers.js';
import { fixture } from './fixture.js';

/** DSN (RFC 3464) and ARF (RFC 5965) reports that come back turn into activity and suppression, once. */
let s: TestServer;
let receiver: Receiver;
let domain: { id: string; name: string };
/** The domain's events, as a webhook of it gets them. */
let events: EventTap;
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  domain = await seedDomain(s, { dkim: true });
  events = await tapEvents(s, receiver, { domainId: domain.id });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

/** The events of one email the domain's webhook got, once every event written so far is delivered. */
const eventsOf = async (emailId: string) => (await events.settle()).filter((e) => e.data.email_id === emailId);


async function delivered(to: string) {
  const res = await s.rest('POST', '/email', { body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Hello', text: 'x' } });
  const [email] = await settled(s, res.headers.get('x-message-id')!);
  const [row] = await sql<{ smtp_message_id: string }>(s, 'select smtp_message_id from emails where id = ?', [email.id]);
  return { ...email, smtp_message_id: row.smtp_message_id, returnPath: `bounces+${email.id}@mta.${domain.name}` };
}

const dsn = (e: { to_email: string; smtp_message_id: string; returnPath: string }, action: string, status: string) =>
  fixture('dsn-failed.eml', {
    RETURN_PATH: e.returnPath, RECIPIENT: e.to_email, MESSAGE_ID: e.smtp_message_id, ACTION: action, STATUS: status,
    DIAGNOSTIC: `${status.startsWith('5') ? 550 : 451} ${status} mailbox unavailable`, NONCE: String(Date.now()),
  });

it('a failed DSN with a 5.x.x status is a hard bounce, suppresses the recipient, and counts once', async () => {
  const e = await delivered(`bounce${Date.now()}@example.net`);
  const out = await processReport(s.app.services, { rcptTo: [e.returnPath], raw: dsn(e, 'failed', '5.1.1') });
  expect(out).toMatchObject({ handled: true, outcome: 'hard_bounced', emailId: e.id });
  const [row] = await sql(s, 'select status, last_response from emails where id = ?', [e.id]);
  expect(row.status).toBe('hard_bounced');
  expect(row.last_response).toContain('5.1.1');
  expect(await activityOf(s, e.id)).toEqual(['queued', 'sent', 'delivered', 'hard_bounced']);
  const list = await s.rest('GET', `/suppressions/hard-bounces?domain_id=${domain.id}`);
  expect(list.body.data.map((r: any) => r.recipient.email)).toContain(e.to_email);
  const again = await processReport(s.app.services, { rcptTo: [e.returnPath], raw: dsn(e, 'failed', '5.1.1') });
  expect(again.outcome).toBe('duplicate');
  expect(await activityOf(s, e.id)).toHaveLength(4);
  const bounced = (await eventsOf(e.id)).filter((ev) => ev.type === 'activity.hard_bounced');
  expect(bounced).toHaveLength(1);
  expect(bounced[0].data).toMatchObject({ email: e.to_email, type: 'hard_bounced' });
});

it('a failed DSN with 4.x.x is a soft bounce; a delayed one only a deferral', async () => {
  const soft = await delivered(`soft${Date.now()}@example.net`);
  expect((await processReport(s.app.services, { rcptTo: [soft.returnPath], raw: dsn(soft, 'failed', '4.2.2') })).outcome).toBe('soft_bounced');
  const late = await delivered(`late${Date.now()}@example.net`);
  expect((await processReport(s.app.services, { rcptTo: [late.returnPath], raw: dsn(late, 'delayed', '4.4.7') })).outcome).toBe('deferred');
  const [row] = await sql(s, 'select status from emails where id = ?', [late.id]);
  expect(row.status).toBe('delivered');
});

it('finds the email by the quoted Message-ID when the report did not come to the return path', async () => {
  const e = await delivered(`quoted${Date.now()}@example.net`);
  const out = await processReport(s.app.services, { rcptTo: ['postmaster@postbox.test'], raw: dsn(e, 'failed', '5.7.1') });
  expect(out).toMatchObject({ outcome: 'hard_bounced', emailId: e.id });
});

it('an ARF complaint records spam_complaints once and puts the recipient on the spam-complaint list', async () => {
  const e = await delivered(`angry${Date.now()}@example.net`);
  const raw = fixture('arf.eml', { RECIPIENT: e.to_email, MESSAGE_ID: e.smtp_message_id, NONCE: String(Date.now()) });
  const out = await processReport(s.app.services, { rcptTo: ['abuse-reports@postbox.test'], raw });
  expect(out).toMatchObject({ handled: true, outcome: 'spam_complaints', emailId: e.id });
  expect((await processReport(s.app.services, { rcptTo: ['abuse-reports@postbox.test'], raw })).outcome).toBe('duplicate');
  expect(await activityOf(s, e.id)).toEqual(['queued', 'sent', 'delivered', 'spam_complaints']);
  const list = await s.rest('GET', `/suppressions/spam-complaints?domain_id=${domain.id}`);
  expect(list.body.data.map((r: any) => r.recipient.email)).toContain(e.to_email);
  const spam = (await eventsOf(e.id)).filter((ev) => ev.type.startsWith('activity.spam'));
  expect(spam.map((ev) => ev.type)).toEqual(['activity.spam_complaint']);
});

it('ignores a message that is neither a DSN nor an ARF report, or names no email of ours', async () => {
  const plain = Buffer.from('From: a@b.example\r\nTo: c@d.example\r\nSubject: hi\r\n\r\nhello\r\n');
  expect((await processReport(s.app.services, { rcptTo: ['bounces+0000000000000000@mta.x'], raw: plain })).handled).toBe(false);
  const stranger = dsn({ to_email: 'x@example.net', smtp_message_id: '<nobody@nowhere>', returnPath: 'p@x' }, 'failed', '5.1.1');
  expect((await processReport(s.app.services, { rcptTo: ['postmaster@postbox.test'], raw: stranger })).handled).toBe(false);
});
