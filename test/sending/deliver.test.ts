import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { seedDomain, accountIdOf } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { activityOf, emailsOf, setPlan, settled, sql, until } from './helpers.js';

/** Decodes the quoted-printable parts of a raw message well enough to look for text in it. */
const unqp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));

describe('delivery to a real SMTP server', () => {
  let sink: SmtpSink;
  let s: TestServer;
  let receiver: Receiver;
  let domain: { id: string; name: string };
  let from: string;
  /** The domain's events, as a webhook of it gets them. */
  let events: EventTap;

  beforeAll(async () => {
    sink = await startSmtpSink();
    s = await startTestServer({
      env: {
        MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
        DELIVERY_RETRY_LIMIT: '2',
        DELIVERY_RETRY_DELAY_SECONDS: '1',
        DELIVERY_TIMEOUT_MS: '1500',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
    receiver = await startReceiver();
    domain = await seedDomain(s, { dkim: true });
    from = `news@${domain.name}`;
    await setPlan(s, await accountIdOf(s), 'professional');
    events = await tapEvents(s, receiver, { domainId: domain.id });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    await sink?.close();
  });

  const send = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    s.rest('POST', '/email', { body: { from: { email: from, name: 'News' }, subject: 'Hello', text: 'Hi', ...body }, headers });

  it('answers 202 with an empty text/plain body and x-message-id, and delivers a signed MIME message', async () => {
    const to = `alice-${Date.now()}@example.net`;
    const res = await send({
      to: [{ email: to, name: 'Alice' }],
      subject: 'Hi {{ name }}',
      html: '<p>Dear {{name}}, <b>{{ bio }}</b> {{missing}}!</p>',
      text: 'Dear {{name}}',
      personalization: [{ email: to, data: { name: 'Alice', bio: '<i>ok</i><script>alert(1)</script>' } }],
      tags: ['welcome'],
      headers: [{ name: 'X-Campaign', value: 'fall-26' }],
      precedence_bulk: true,
      list_unsubscribe: '<https://example.net/unsub?u=1>',
      attachments: [
        { filename: 'notes.txt', content: Buffer.from('attached words').toString('base64') },
        { filename: 'more.txt', content: Buffer.from('more words, after the first').toString('base64') },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const messageId = res.headers.get('x-message-id')!;
    expect(messageId).toMatch(/^[a-z0-9]{24}$/);
    expect(res.headers.get('x-send-paused')).toBeNull();

    const got = await sink.waitFor(to);
    // Unfolded, so that a long header can be matched on one line.
    const raw = got.raw.replace(/\r?\n[ \t]+/g, ' ');
    const body = unqp(got.raw);
    expect(raw).toMatch(/^Subject: Hi Alice\r?$/m);
    expect(body).toContain('Dear Alice, <b><i>ok</i></b> !');
    expect(body).not.toContain('<script>');
    expect(raw).toMatch(/^X-Campaign: fall-26\r?$/m);
    expect(raw).toMatch(/^Precedence: bulk\r?$/m);
    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/example\.net\/unsub\?u=1>\r?$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(raw).toMatch(/^Message-ID: <[a-z0-9]{16}@/m);
    expect(raw).toContain('filename=notes.txt');
    // Each attachment's own bytes, in order (they are stored from one parameter of all of them).
    const first = raw.indexOf(Buffer.from('attached words').toString('base64'));
    expect(first).toBeGreaterThan(0);
    expect(raw.indexOf(Buffer.from('more words, after the first').toString('base64'))).toBeGreaterThan(first);
    expect(got.from).toMatch(new RegExp(`^bounces\\+[a-z0-9]+@mta\\.${domain.name.replace(/\./g, '\\.')}$`));

    // The signature verifies against the key GET /dns-records publishes.
    const records = await s.rest('GET', `/domains/${domain.id}/dns-records`);
    const dkim = records.body.data.dkim;
    const verdict = await dkimVerify(Buffer.from(got.raw), {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === dkim.hostname) return [[dkim.value]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(verdict.results[0].status.result).toBe('pass');
    expect(verdict.results[0].signingDomain).toBe(domain.name);

    const [email] = await settled(s, messageId);
    expect(email).toMatchObject({ status: 'delivered', to_email: to, subject: 'Hi Alice' });
    expect(await activityOf(s, email.id)).toEqual(['queued', 'sent', 'delivered']);
    const emailEvents = (await events.settle()).filter((e) => e.data.email_id === email.id);
    expect(emailEvents.map((e) => e.type)).toEqual(['activity.sent', 'activity.delivered']);
    expect(emailEvents[0].data).toMatchObject({ message_id: messageId, email: to, subject: 'Hi Alice', tags: ['welcome'], type: 'sent', meta: [] });
    // The payload's text as its producer wrote it, spliced into the body (domain_events.payload is
    // json): compact, and its fields in SPEC.md's order.
    const raws = receiver.requests.filter((r) => r.json?.data?.email_id === email.id).map((r) => r.raw);
    expect(raws).toHaveLength(2);
    for (const raw of raws) {
      expect(raw).toBe(JSON.stringify(JSON.parse(raw)));
      expect(Object.keys(JSON.parse(raw).data)).toEqual(['id', 'domain_id', 'message_id', 'email_id', 'type', 'subject', 'email', 'tags', 'meta', 'created_at']);
    }
  });

  it('counts deliveries and their SMTP time on /metrics, with the queue depth read at scrape time', async () => {
    const to = `counted-${Date.now()}@example.net`;
    const before = await scrapeMetrics(s);
    const count = (text: string, line: RegExp) => Number(line.exec(text)?.[1] ?? 0);
    const res = await send({ to: [{ email: to }] });
    await settled(s, res.headers.get('x-message-id')!);
    const after = await scrapeMetrics(s);
    const delivered = /^postbox_email_deliveries_total\{outcome="delivered",reason="none"\} (\d+)$/m;
    const timed = /^postbox_delivery_seconds_count (\d+)$/m;
    expect(count(after, delivered)).toBe(count(before, delivered) + 1);
    expect(count(after, timed)).toBe(count(before, timed) + 1);
    expect(after).toMatch(/^postbox_queue_depth\{queue="email\.deliver"\} \d+$/m);
  });

  it('counts accepted sends by the surface they came through', async () => {
    const count = (text: string, surface: string) =>
      Number(new RegExp(`^postbox_sends_accepted_total\\{surface="${surface}",status="queued"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await scrapeMetrics(s);
    expect((await send({ to: [{ email: `rest-${Date.now()}@example.net` }] })).status).toBe(202);
    const gql = await s.gql(
      'mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!) { send_email(from: $from, to: $to, subject: "Hello", text: "Hi") { message_id } }',
      { from: { email: from }, to: [{ email: `gql-${Date.now()}@example.net` }] },
    );
    expect(gql.body.data?.send_email?.message_id).toBeTruthy();
    const after = await scrapeMetrics(s);
    expect(count(after, 'rest')).toBe(count(before, 'rest') + 1);
    expect(count(after, 'graphql')).toBe(count(before, 'graphql') + 1);
  });

  it('sends each to-recipient its own copy, and cc/bcc with the first', async () => {
    const a = `a-${Date.now()}@example.net`;
    const b = `b-${Date.now()}@example.org`;
    const cc = `cc-${Date.now()}@example.net`;
    const bcc = `bcc-${Date.now()}@example.net`;
    const res = await send({ to: [{ email: a }, { email: b }], cc: [{ email: cc }], bcc: [{ email: bcc }] });
    expect(res.status).toBe(202);
    const first = await sink.waitFor(a);
    expect(first.to).toEqual([a, cc, bcc]);
    expect(first.raw).toMatch(new RegExp(`^Cc: ${cc}`, 'm'));
    expect(first.raw).not.toMatch(/^Bcc:/m);
    const second = await sink.waitFor(b);
    expect(second.to).toEqual([b]);
  });

  it('turns a 5xx into hard_bounced and puts the recipient on the hard-bounce list', async () => {
    const to = `gone-${Date.now()}@example.net`;
    sink.refuse(to, 550);
    const res = await send({ to: [{ email: to }] });
    const [email] = await settled(s, res.headers.get('x-message-id')!);
    expect(email.status).toBe('hard_bounced');
    expect(await activityOf(s, email.id)).toEqual(['queued', 'hard_bounced']);
    const list = await s.rest('GET', `/suppressions/hard-bounces?domain_id=${domain.id}`);
    expect(list.body.data.map((r: any) => r.recipient.email)).toContain(to);
    // The next send to it is suppressed, with a warning.
    const again = await send({ to: [{ email: to }, { email: `ok-${Date.now()}@example.net` }] });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({
      message: 'There are some warnings for your request.',
      warnings: [{ type: 'SOME_SUPPRESSED', warning: expect.any(String), recipients: [{ email: to, name: null, reasons: ['hard_bounced'] }] }],
    });
    expect(again.headers.get('x-message-id')).toBeTruthy();
    const rows = await emailsOf(s, again.headers.get('x-message-id')!);
    expect(rows[0]).toMatchObject({ status: 'suppressed', suppression_reason: 'hard_bounced' });
    expect(await activityOf(s, rows[0].id)).toEqual(['suppressed']);
  });

  it("reads a large provider's refusal for people: its class, the requirement it names and what to do, in webhooks, activity and the email", async () => {
    const to = `unauth-${Date.now()}@example.net`;
    const words = '5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM. - gsmtp';
    sink.refuse(to, 550, words);
    const res = await send({ to: [{ email: to }] });
    const [email] = await settled(s, res.headers.get('x-message-id')!);
    expect(email.status).toBe('hard_bounced');
    const diagnosis = { reason: 'policy', requirement: 'authentication', provider: 'gmail', explanation: expect.stringMatching(/SPF or DKIM/) };

    const [bounce] = (await events.until((b) => b.some((e) => e.data.email_id === email.id))).filter((e) => e.data.email_id === email.id);
    expect(bounce.type).toBe('activity.hard_bounced');
    expect(bounce.data.meta).toEqual({ smtp_response: expect.stringContaining(words), ...diagnosis });

    const when = { from: String(Math.floor(Date.now() / 1000) - 600), to: String(Math.floor(Date.now() / 1000) + 60) };
    const page = await s.gql(
      'query($d: ID!, $f: String!, $t: String!) { activities(domain_id: $d, date_from: $f, date_to: $t, event: ["hard_bounced"]) { data { type email { id } diagnosis { reason requirement provider explanation smtp_response } } } }',
      { d: domain.id, f: when.from, t: when.to },
    );
    const entry = page.body.data.activities.data.find((a: any) => a.email.id === email.id);
    expect(entry.diagnosis).toEqual({ ...diagnosis, smtp_response: expect.stringContaining(words) });
    const detail = await s.gql('query($id: ID!) { email(email_id: $id) { diagnosis { requirement explanation } } }', { id: email.id });
    expect(detail.body.data.email.diagnosis).toEqual({ requirement: 'authentication', explanation: diagnosis.explanation });
    // /v1 answers as MailerSend does: no such field.
    const rest = await s.rest('GET', `/activity/${domain.id}?date_from=${when.from}&date_to=${when.to}&event[]=hard_bounced`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.length).toBeGreaterThan(0);
    for (const a of rest.body.data) expect(a).not.toHaveProperty('diagnosis');
  });

  it('defers a 4xx, retries with backoff, and soft-bounces when retries run out', async () => {
    const to = `busy-${Date.now()}@example.net`;
    sink.refuse(to, 451);
    const res = await send({ to: [{ email: to }] });
    const [email] = await settled(s, res.headers.get('x-message-id')!, 30_000);
    expect(email.status).toBe('soft_bounced');
    // Three attempts: the first and two retries.
    expect(sink.attempts.filter((a) => a === to)).toHaveLength(3);
    expect(await activityOf(s, email.id)).toEqual(['queued', 'deferred', 'deferred', 'soft_bounced']);
  }, 40_000);

  it('defers a server that does not answer, then delivers once it does', async () => {
    const to = `slow-${Date.now()}@example.net`;
    sink.stall(to);
    const res = await send({ to: [{ email: to }] });
    const id = res.headers.get('x-message-id')!;
    await until(async () => (await emailsOf(s, id))[0].status === 'deferred', 15_000, 'deferral');
    sink.release(to);
    const [email] = await settled(s, id, 15_000);
    expect(email.status).toBe('delivered');
    expect(sink.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(await activityOf(s, email.id)).toEqual(['queued', 'deferred', 'sent', 'delivered']);
  }, 30_000);

  it('leaves a batch queued when its claim fails, so it is fetched again at once rather than retried', async () => {
    // The claim writes the batch's lease row in the transaction that fetched its jobs: the first
    // row this trigger sees is refused (a sequence, so the refusal's rollback does not undo the count).
    await sql(s, 'create sequence claim_fault');
    await sql(s, `create function claim_fault() returns trigger language plpgsql as $$
      begin if nextval('claim_fault') = 1 then raise exception 'claim refused by the test'; end if; return new; end $$`);
    await sql(s, 'create trigger claim_fault before insert on delivery_leases for each row execute function claim_fault()');
    try {
      const to = `claim-${Date.now()}@example.net`;
      const res = await send({ to: [{ email: to }] });
      const id = res.headers.get('x-message-id')!;
      const [email] = await settled(s, id, 15_000);
      expect(email.status).toBe('delivered');
      const [{ refused }] = await sql<{ refused: string }>(s, 'select last_value::text as refused from claim_fault');
      expect(Number(refused)).toBeGreaterThan(1);
      // Not failed and retried: the refused claim left the job queued, with no attempt counted.
      // The batch settles its jobs once its outcomes are recorded: wait for that, not for the outcome.
      const jobsOf = () => sql<{ state: string; retry_count: number }>(s, `select state, retry_count from pgboss.job where name = 'email.deliver' and data->>'message_id' = ?`, [id]);
      await until(async () => (await jobsOf()).every((j) => j.state !== 'active'), 10_000, 'the batch settled');
      expect(await jobsOf()).toEqual([{ state: 'completed', retry_count: 0 }]);
      expect(sink.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    } finally {
      await sql(s, 'drop trigger claim_fault on delivery_leases');
      await sql(s, 'drop function claim_fault()');
      await sql(s, 'drop sequence claim_fault');
    }
  }, 30_000);
});
