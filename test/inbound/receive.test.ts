import nodemailer from 'nodemailer';
import pg from 'pg';
import { ISO, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { receiveInbound, hasInboundRoute } from '../../src/engines/inbound/inbound.receive.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';

let s: TestServer;
let r: Receiver;
let sink: SmtpSink;
let db: pg.Client;
let domain: { id: string; name: string };
/** The domain's inbound events, as a webhook of it gets them. */
let inboundEvents: EventTap;
let seq = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  r = await startReceiver();
  s = await startTestServer({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` },
  });
  domain = await seedDomain(s);
  inboundEvents = await tapEvents(s, r, { domainId: domain.id }, { types: ['inbound_forward.failed', 'inbound_message.rejected'] });
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await s?.close();
  await r?.close();
  await sink?.close();
});

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });

/** A MIME message as a mail client would send it. */
async function mime(opts: Record<string, unknown> = {}): Promise<Buffer> {
  const info = await composer.sendMail({
    from: 'Alice <alice@sender.example>',
    to: 'support@in.example',
    subject: 'Hello inbound',
    text: 'Plain body',
    html: '<p>HTML body</p>',
    ...opts,
  });
  return info.message as Buffer;
}

const receive = (rcptTo: string[], raw: Buffer, mailFrom = 'alice@sender.example') =>
  receiveInbound(s.app.services, { mailFrom, rcptTo, raw });

async function route(body: Record<string, unknown>) {
  const res = await s.rest('POST', '/inbound', { body: { domain_id: domain.id, name: `route ${++seq}`, ...body } });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; address: string; forwards: { id: string; type: string; value: string; secret?: string }[] };
}

const hook = (path: string) => ({ type: 'webhook', value: r.url(path) });

async function messages(inboundId: string) {
  const { rows } = await db.query('select * from inbound_messages where inbound_id = $1 order by created_at', [inboundId]);
  return rows;
}

/** The events of one route the domain's webhook got (bodies, in the order they happened), once every event written so far is delivered. */
async function events(inboundId: string) {
  return (await inboundEvents.settle()).filter((e) => e.data.inbound_id === inboundId);
}

describe('routing', () => {
  it('answers 550 5.1.1 when no route takes the recipient, and records nothing', async () => {
    const res = await receive(['nobody@nowhere.example'], await mime());
    expect(res).toEqual({ accepted: false, code: 550, message: expect.stringMatching(/^5\.1\.1 /) });
    expect(await hasInboundRoute(s.app.services, 'nobody@nowhere.example')).toBe(false);
  });

  it('takes mail for the route\'s own address, and forwards the original bytes to an email', async () => {
    // On the account's verified domain: forwarded without a confirmation (see forwards.test.ts).
    const to = `copy${++seq}@${domain.name}`;
    const rt = await route({ forwards: [{ type: 'email', value: to }] });
    expect(await hasInboundRoute(s.app.services, rt.address.toUpperCase())).toBe(true);
    const raw = await mime({ to: rt.address, subject: 'Own address' });
    const res = await receive([rt.address.toUpperCase()], raw);
    expect(res).toEqual({ accepted: true, code: 250, message: expect.stringMatching(/^2\.0\.0 /) });
    const got = await sink.waitFor(to);
    // The envelope sender is the route's domain's return path, never the original sender.
    expect(got.from).toBe(`bounces@mta.${domain.name}`);
    expect(got.to).toEqual([to]);
    expect(got.raw.replace(/\r\n$/, '')).toBe(raw.toString('utf8').replace(/\r\n$/, ''));
    const [m] = await messages(rt.id);
    expect(m).toMatchObject({
      account_id: expect.any(String),
      domain_id: domain.id,
      mail_from: 'alice@sender.example',
      rcpt_to: [rt.address],
      subject: 'Own address',
      size: raw.length,
      status: 'forwarded',
      reason: null,
    });
    expect(await events(rt.id)).toEqual([]);
  });

  it('posts the parsed message, signed with the forward\'s own secret, to a webhook', async () => {
    const path = `/in-${++seq}`;
    const rt = await route({ forwards: [hook(path)] });
    const secret = rt.forwards[0].secret!;
    r.secretFor(path, secret);
    const raw = await mime({
      to: rt.address,
      cc: 'Bob <bob@cc.example>',
      headers: { 'X-Trace': 'abc' },
      attachments: [{ filename: 'report.pdf', content: Buffer.from('%PDF-1.4 test') }],
    });
    const res = await receive([rt.address], raw);
    expect(res.code).toBe(250);
    const [req] = r.received(path);
    expect(req).toMatchObject({ method: 'POST', verified: true, signatureOk: true, standardOk: true, secret });
    expect(req.headers['content-type']).toBe('application/json');
    expect(Object.keys(req.json).sort()).toEqual(['created_at', 'data', 'type']);
    expect(req.json.type).toBe('inbound.message');
    expect(req.json.created_at).toMatch(ISO);
    const d = req.json.data;
    const [m] = await messages(rt.id);
    expect(Object.keys(d).sort()).toEqual([
      'attachments', 'auth', 'cc', 'domain_id', 'from', 'headers', 'html', 'id', 'inbound_id', 'mail_from', 'raw', 'rcpt_to', 'received_at',
      'reply_to', 'subject', 'text', 'to',
    ]);
    expect(d).toMatchObject({
      id: m.id,
      inbound_id: rt.id,
      domain_id: domain.id,
      mail_from: 'alice@sender.example',
      rcpt_to: [rt.address],
      from: { email: 'alice@sender.example', name: 'Alice' },
      to: [{ email: rt.address, name: '' }],
      cc: [{ email: 'bob@cc.example', name: 'Bob' }],
      reply_to: [],
      subject: 'Hello inbound',
      text: 'Plain body',
      html: '<p>HTML body</p>',
    });
    expect(d.received_at).toMatch(ISO);
    expect(d.headers).toContainEqual({ name: 'X-Trace', value: 'abc' });
    expect(d.attachments).toEqual([
      {
        filename: 'report.pdf',
        content_type: 'application/pdf',
        size: 13,
        disposition: 'attachment',
        content_id: null,
        content: Buffer.from('%PDF-1.4 test').toString('base64'),
      },
    ]);
    expect(Buffer.from(d.raw, 'base64').equals(raw)).toBe(true);
    expect(m.status).toBe('forwarded');
  });

  it('routes an inbound domain by priority and catch filter', async () => {
    const host = `in${++seq}.${domain.name}`;
    const p1 = `/prio-high-${seq}`;
    const p2 = `/prio-low-${seq}`;
    const high = await route({
      domain_enabled: true,
      inbound_domain: host,
      inbound_priority: 50,
      catch_filter: { type: 'catch_recipient', filters: [{ comparer: 'equal', value: 'support' }] },
      forwards: [hook(p1)],
    });
    const low = await route({ domain_enabled: true, inbound_domain: host, inbound_priority: 10, forwards: [hook(p2)] });
    expect((await receive([`Support@${host}`], await mime({ subject: 'to support' }))).code).toBe(250);
    expect((await receive([`sales@${host}`], await mime({ subject: 'to sales' }))).code).toBe(250);
    expect(r.received(p1).map((q) => q.json.data.subject)).toEqual(['to support']);
    expect(r.received(p2).map((q) => q.json.data.subject)).toEqual(['to sales']);
    expect((await messages(high.id)).map((m) => m.rcpt_to)).toEqual([[`support@${host}`]]);
    expect((await messages(low.id)).map((m) => m.rcpt_to)).toEqual([[`sales@${host}`]]);
  });

  it('applies match filters (sender, sender domain, header), falling through to the next route', async () => {
    const host = `match${++seq}.${domain.name}`;
    const paths = { sender: `/m-sender-${seq}`, domain: `/m-domain-${seq}`, header: `/m-header-${seq}`, rest: `/m-rest-${seq}` };
    await route({
      domain_enabled: true, inbound_domain: host, inbound_priority: 40,
      match_filter: { type: 'match_sender', filters: [{ comparer: 'equal', value: 'vip@partner.example' }] },
      forwards: [hook(paths.sender)],
    });
    await route({
      domain_enabled: true, inbound_domain: host, inbound_priority: 30,
      match_filter: { type: 'match_domain', filters: [{ comparer: 'ends-with', value: 'partner.example' }] },
      forwards: [hook(paths.domain)],
    });
    await route({
      domain_enabled: true, inbound_domain: host, inbound_priority: 20,
      match_type: 'one',
      match_filter: { type: 'match_header', filters: [{ key: 'X-Priority-Lane', comparer: 'equal', value: 'fast' }, { key: 'List-Id', comparer: 'contains', value: 'alerts' }] },
      forwards: [hook(paths.header)],
    });
    await route({ domain_enabled: true, inbound_domain: host, inbound_priority: 0, forwards: [hook(paths.rest)] });
    // A disabled route with the top priority is never used.
    await route({ domain_enabled: true, inbound_domain: host, inbound_priority: 99, enabled: false, forwards: [hook('/never')] });

    await receive([`a@${host}`], await mime({ subject: 'vip' }), 'VIP@partner.example');
    await receive([`a@${host}`], await mime({ subject: 'colleague' }), 'other@eu.partner.example');
    await receive([`a@${host}`], await mime({ subject: 'listed', headers: { 'List-Id': 'Ops <alerts.ops.example>' } }), 'x@else.example');
    await receive([`a@${host}`], await mime({ subject: 'plain' }), 'x@else.example');
    const subjects = (p: string) => r.received(p).map((q) => q.json.data.subject);
    expect(subjects(paths.sender)).toEqual(['vip']);
    expect(subjects(paths.domain)).toEqual(['colleague']);
    expect(subjects(paths.header)).toEqual(['listed']);
    expect(subjects(paths.rest)).toEqual(['plain']);
    expect(r.received('/never')).toEqual([]);
  });

  it('gives each route its own copy when the recipients belong to different routes', async () => {
    const a = await route({ forwards: [hook(`/multi-a-${++seq}`)] });
    const b = await route({ forwards: [hook(`/multi-b-${seq}`)] });
    const res = await receive([a.address, b.address, 'stray@nowhere.example'], await mime());
    expect(res.code).toBe(250);
    expect((await messages(a.id)).map((m) => [m.rcpt_to, m.status])).toEqual([[[a.address], 'forwarded']]);
    expect((await messages(b.id)).map((m) => [m.rcpt_to, m.status])).toEqual([[[b.address], 'forwarded']]);
  });
});

describe('failures and refusals', () => {
  it('records a failed webhook forward as inbound_forward.failed, still answering 250', async () => {
    const path = `/fail-${++seq}`;
    r.respond(path, { status: 500 });
    const okTo = `ok${seq}@${domain.name}`;
    const rt = await route({ forwards: [hook(path), { type: 'email', value: okTo }] });
    const res = await receive([rt.address], await mime({ subject: 'will fail' }));
    expect(res.code).toBe(250);
    expect(r.received(path)).toHaveLength(1);
    await sink.waitFor(okTo);
    const [m] = await messages(rt.id);
    expect(m.status).toBe('failed');
    expect(m.reason).toBe(`webhook ${r.url(path)}: HTTP 500`);
    const ev = await events(rt.id);
    expect(ev).toHaveLength(1);
    expect(ev[0].type).toBe('inbound_forward.failed');
    expect(ev[0].data).toEqual({ domain_id: domain.id, inbound_id: rt.id, inbound_message_id: m.id });
  });

  it('records an unreachable webhook and a refused email forward as failed too', async () => {
    const refused = `refused${++seq}@${domain.name}`;
    sink.refuse(refused, 550);
    const rt = await route({ forwards: [{ type: 'webhook', value: 'http://127.0.0.1:1/closed' }, { type: 'email', value: refused }] });
    expect((await receive([rt.address], await mime())).code).toBe(250);
    const [m] = await messages(rt.id);
    expect(m.status).toBe('failed');
    expect(m.reason).toMatch(/^webhook http:\/\/127\.0\.0\.1:1\/closed: connection failed: ECONNREFUSED; email refused\d+@\S+: .*550/);
    expect((await events(rt.id)).map((e) => e.type)).toEqual(['inbound_forward.failed']);
  });

  it('rejects an attachment of an unsupported type (inbound_message.rejected), forwarding nothing', async () => {
    const path = `/exe-${++seq}`;
    const rt = await route({ forwards: [hook(path)] });
    const raw = await mime({
      to: rt.address,
      attachments: [
        { filename: 'setup.exe', content: Buffer.from('MZ binary'), contentType: 'application/x-msdownload' },
        { filename: 'notes.txt', content: 'fine' },
        // Labelled generically: the .exe name decides, and the label is what gets reported.
        { filename: 'tool.exe', content: Buffer.from('MZ binary') },
      ],
    });
    const res = await receive([rt.address], raw);
    expect(res).toEqual({
      accepted: false,
      code: 550,
      message: '5.6.1 Unsupported attachment type: application/x-msdownload, application/octet-stream',
    });
    expect(r.received(path)).toEqual([]);
    const [m] = await messages(rt.id);
    expect(m).toMatchObject({ status: 'rejected', reason: 'unsupported_attachment_type', subject: 'Hello inbound' });
    const [ev, ...more] = await events(rt.id);
    expect(more).toEqual([]);
    expect(ev.type).toBe('inbound_message.rejected');
    expect(ev.data).toEqual({
      domain_id: domain.id,
      inbound_id: rt.id,
      inbound_message_id: m.id,
      reason: 'unsupported_attachment_type',
      unsupported_attachment_types: ['application/x-msdownload', 'application/octet-stream'],
    });
  });

  it('rejects an attachment over 25 MB with attachment_size_exceeded', async () => {
    const path = `/big-${++seq}`;
    const rt = await route({ forwards: [hook(path)] });
    const raw = await mime({ to: rt.address, attachments: [{ filename: 'big.pdf', content: Buffer.alloc(25 * 1024 * 1024 + 1, 65) }] });
    const res = await receive([rt.address], raw);
    expect(res).toEqual({ accepted: false, code: 552, message: '5.3.4 An attachment exceeds the maximum size of 25 MB' });
    expect(r.received(path)).toEqual([]);
    const [m] = await messages(rt.id);
    expect(m).toMatchObject({ status: 'rejected', reason: 'attachment_size_exceeded', size: raw.length });
    const [ev, ...more] = await events(rt.id);
    expect(more).toEqual([]);
    expect(ev.type).toBe('inbound_message.rejected');
    expect(ev.data).toEqual({ domain_id: domain.id, inbound_id: rt.id, inbound_message_id: m.id, reason: 'attachment_size_exceeded' });
  }, 30_000);

  it('delivers the rejection to an email webhook subscribed to inbound_message.rejected', async () => {
    const whPath = `/email-webhook-${++seq}`;
    const wh = await s.rest('POST', '/webhooks', {
      body: { url: r.url(whPath), name: 'inbound events', events: ['inbound_message.rejected'], domain_id: domain.id },
    });
    expect(wh.status).toBe(201);
    r.secretFor(whPath, wh.body.data.secret);
    const rt = await route({ forwards: [hook(`/unused-${seq}`)] });
    await receive([rt.address], await mime({ attachments: [{ filename: 'run.exe', content: 'MZ' }] }));
    const [m] = await messages(rt.id);
    await runTick(s.app.services);
    const reqs = await r.waitFor(() => r.received(whPath).some((q) => q.json?.type === 'inbound_message.rejected'));
    const req = reqs.find((q) => q.path === whPath && q.json?.type === 'inbound_message.rejected')!;
    expect(req.verified).toBe(true);
    expect(req.json.created_at).toMatch(ISO);
    expect(req.json.data).toEqual({
      domain_id: domain.id,
      inbound_id: rt.id,
      inbound_message_id: m.id,
      reason: 'unsupported_attachment_type',
      unsupported_attachment_types: ['application/octet-stream'],
    });
  });
});
