import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from './helpers.js';

/**
 * track_content: off, a message's bodies (html, text, personalization, attachments) are dropped once
 * every email of it is delivered, and the email log shows no content; until then they are kept.
 */
let s: TestServer;
let sink: SmtpSink;
let off: { id: string; name: string };
let on: { id: string; name: string };
let n = 0;

interface Stored {
  status: string;
  html: string | null;
  text: string | null;
  personalization: Record<string, unknown>;
  content_cleared_at: string | null;
  attachments: number;
}

const stored = async (messageId: string) =>
  (await sql<Stored>(
    s,
    `select m.status, m.html, m.text, m.personalization, m.content_cleared_at,
            (select count(*)::int from message_attachments a where a.message_id = m.id) as attachments
       from messages m where m.id = ?`,
    [messageId],
  ))[0];

async function send(domain: { name: string }, extra: Record<string, unknown> = {}) {
  n += 1;
  const to = `reader${n}-${Date.now()}@example.net`;
  const res = await s.rest('POST', '/email', {
    body: {
      from: { email: `news@${domain.name}` },
      to: [{ email: to }],
      subject: 'Private {{ name }}',
      html: '<p>Secret html for {{ name }}</p>',
      text: 'Secret text for {{ name }}',
      personalization: [{ email: to, data: { name: 'Ada' } }],
      attachments: [{ filename: 'notes.txt', content: Buffer.from('secret attachment').toString('base64') }],
      ...extra,
    },
  });
  expect(res.status).toBe(202);
  const messageId = res.headers.get('x-message-id')!;
  const [email] = await sql<{ id: string }>(s, 'select id from emails where message_id = ?', [messageId]);
  return { to, messageId, emailId: email.id };
}

const sentRow = (messageId: string) =>
  until(async () => {
    const row = await stored(messageId);
    return row.status === 'sent' ? row : null;
  }, `message ${messageId} sent`);

async function dropped(): Promise<number> {
  const text = await scrapeMetrics(s);
  const hit = text.split('\n').find((l) => l.startsWith('postbox_message_content_dropped_total '));
  return hit ? Number(hit.split(' ')[1]) : 0;
}

async function logged(emailId: string) {
  const rest = await s.rest('GET', `/email/${emailId}`);
  expect(rest.status).toBe(200);
  const gql = await s.gql('query($id: ID!) { email(email_id: $id) { html text content { raw } } }', { id: emailId });
  expect(gql.body.errors).toBeUndefined();
  return { rest: rest.body.data, gql: gql.body.data.email };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({
    env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, DELIVERY_RETRY_DELAY_SECONDS: '1', DELIVERY_RETRY_LIMIT: '3' },
  });
  off = await seedDomain(s, { dkim: true });
  on = await seedDomain(s, { dkim: true });
  const res = await s.rest('PUT', `/domains/${off.id}/settings`, { body: { track_content: false } });
  expect(res.status).toBe(200);
  expect(res.body.data.domain_settings.track_content).toBe(false);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

describe('track_content', () => {
  it('is on for a new domain: the bodies stay and the log shows them', async () => {
    expect((await s.rest('GET', `/domains/${on.id}`)).body.data.domain_settings.track_content).toBe(true);
    const m = await send(on);
    await sink.waitFor(m.to);
    const row = await sentRow(m.messageId);
    expect(row).toMatchObject({ html: '<p>Secret html for {{ name }}</p>', text: 'Secret text for {{ name }}', content_cleared_at: null, attachments: 1 });
    const log = await logged(m.emailId);
    expect(log.rest.html).toContain('Secret html');
    expect(log.gql.text).toContain('Secret text');
  });

  it('off: delivered mail is whole, then the rows no longer hold the bodies and the log shows no content', async () => {
    const before = await dropped();
    const m = await send(off);
    const got = await sink.waitFor(m.to);
    expect(got.raw).toContain('Secret html for Ada');
    expect(got.raw).toContain(Buffer.from('secret attachment').toString('base64'));
    const row = await sentRow(m.messageId);
    expect(row).toMatchObject({ html: null, text: null, personalization: {}, attachments: 0 });
    expect(row.content_cleared_at).not.toBeNull();
    expect(await dropped()).toBe(before + 1);
    const log = await logged(m.emailId);
    expect(log.rest).toMatchObject({ html: null, text: null, content: null, status: 'delivered', subject: 'Private Ada' });
    expect(log.gql).toEqual({ html: null, text: null, content: null });
  });

  it('keeps the bodies until delivery: a scheduled send, and a deferred one until it is delivered', async () => {
    const later = await send(off, { send_at: Math.floor(Date.now() / 1000) + 3600 });
    expect(await stored(later.messageId)).toMatchObject({ html: '<p>Secret html for {{ name }}</p>', attachments: 1, content_cleared_at: null });

    sink.failData = 451;
    const m = await send(off);
    await until(async () => sink.dataFailures > 0 || null, 'a deferral');
    expect(await stored(m.messageId)).toMatchObject({ html: '<p>Secret html for {{ name }}</p>', text: 'Secret text for {{ name }}', attachments: 1 });
    sink.failData = 0;
    const got = await sink.waitFor(m.to, 15_000);
    expect(got.raw).toContain('Secret html for Ada');
    expect(await sentRow(m.messageId)).toMatchObject({ html: null, text: null, attachments: 0 });
  });

  it('off, a template send shows no content either: not the template\'s, in the log nor in activity', async () => {
    const t = await s.rest('POST', '/templates', {
      body: { name: 'Private', html: '<p>Template secret {{ name }}</p>', text: 'Template secret {{ name }}', subject: 'Tpl', domain_id: off.id },
    });
    expect(t.status).toBe(201);
    const m = await send(off, { template_id: t.body.data.id, html: undefined, text: undefined, attachments: undefined, subject: undefined });
    const got = await sink.waitFor(m.to);
    expect(got.raw).toContain('Template secret Ada');
    await sentRow(m.messageId);
    expect((await logged(m.emailId)).rest).toMatchObject({ html: null, text: null, content: null, template_id: t.body.data.id });
    const now = Math.floor(Date.now() / 1000);
    const act = await s.rest('GET', `/activity/${off.id}?date_from=${now - 600}&date_to=${now + 60}&limit=100`);
    expect(act.status).toBe(200);
    const mine = act.body.data.filter((a: any) => a.email.id === m.emailId);
    expect(mine.length).toBeGreaterThan(0);
    for (const a of mine) expect(a.email).toMatchObject({ html: null, text: null });
  });

  it('a send\'s settings.track_content overrides its domain\'s', async () => {
    const kept = await send(off, { settings: { track_content: true } });
    const dropped = await send(on, { settings: { track_content: false } });
    await sink.waitFor(kept.to);
    await sink.waitFor(dropped.to);
    expect(await sentRow(kept.messageId)).toMatchObject({ html: '<p>Secret html for {{ name }}</p>', attachments: 1, content_cleared_at: null });
    expect(await sentRow(dropped.messageId)).toMatchObject({ html: null, text: null, attachments: 0 });
    expect((await logged(dropped.emailId)).rest).toMatchObject({ html: null, text: null, content: null });
  });
});
