import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveryJobs, sql } from './helpers.js';

/**
 * POST /v1/email writes a send in one statement, which also looks for suppressions; when one may
 * concern the send, the send is judged and written by a second one. What either writes must be
 * what the separate writes made: the delivery job (in the job outbox, with its send time; the
 * worker's relay makes it pg-boss's job, test/sending/outbox.test.ts), the suppressed emails with
 * their warnings, an Idempotency-Key honoured on both paths.
 */
describe('the acceptance statement', () => {
  let s: TestServer;
  let domain: { id: string; name: string };
  let n = 0;
  const to = () => `st${Date.now()}-${++n}@example.net`;

  beforeAll(async () => {
    s = await startTestServer({ roles: ['api'] });
    domain = await seedDomain(s);
  }, 60_000);
  afterAll(() => s?.close());

  const post = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    s.rest('POST', '/email', { body: { from: { email: `st@${domain.name}` }, subject: 'S', text: 'T', ...body }, headers });

  it('writes the delivery job with its send time to the job outbox, in the same statement as the message', async () => {
    const at = new Date(Date.now() + 3600_000);
    const res = await post({ to: [{ email: to() }], send_at: Math.floor(at.getTime() / 1000) });
    expect(res.status).toBe(202);
    const id = res.headers.get('x-message-id')!;
    const outbox = await sql(s, `select queue, data, start_after from job_outbox where data->>'message_id' = ?`, [id]);
    expect(outbox.map((r) => ({ ...r, start_after: new Date(r.start_after).getTime() }))).toEqual([
      { queue: 'email.deliver', data: { message_id: id }, start_after: Math.floor(at.getTime() / 1000) * 1000 },
    ]);
    // No worker runs here: nothing took it into pg-boss.
    expect(await sql(s, `select id from pgboss.job where data->>'message_id' = ?`, [id])).toEqual([]);
    const [msg] = await sql(s, 'select status, send_at from messages where id = ?', [id]);
    expect(msg.status).toBe('scheduled');
  });

  it('writes a send some of whose recipients are suppressed, with its warnings, once per Idempotency-Key', async () => {
    const gone = to();
    const ok = to();
    expect((await s.rest('POST', '/suppressions/unsubscribes', { body: { domain_id: domain.id, recipients: [gone] } })).status).toBe(201);
    const body = { to: [{ email: gone }, { email: ok }], cc: [{ email: gone }] };
    const key = `st-${Date.now()}`;
    const [a, b] = await Promise.all([post(body, { 'idempotency-key': key }), post(body, { 'idempotency-key': key })]);
    const warning = {
      message: 'There are some warnings for your request.',
      warnings: [{ type: 'SOME_SUPPRESSED', warning: expect.any(String), recipients: [{ email: gone, name: null, reasons: ['unsubscribed'] }, { email: gone, name: null, reasons: ['unsubscribed'] }] }],
    };
    for (const r of [a, b]) {
      expect(r.status).toBe(202);
      expect(r.body).toEqual(warning);
    }
    const id = a.headers.get('x-message-id')!;
    expect(b.headers.get('x-message-id')).toBe(id);
    expect(await sql(s, 'select to_email, status, suppression_reason from emails where message_id = ? order by position', [id])).toEqual([
      { to_email: gone, status: 'suppressed', suppression_reason: 'unsubscribed' },
      { to_email: ok, status: 'queued', suppression_reason: null },
    ]);
    const [m] = await sql(s, 'select cc from messages where id = ?', [id]);
    expect(m.cc).toEqual([]);
    const activity = await sql(s, 'select a.type from activities a join emails e on e.id = a.email_id where e.message_id = ? order by e.position', [id]);
    expect(activity.map((r) => r.type)).toEqual(['suppressed', 'queued']);
    const [{ n: messages }] = await sql(s, `select count(*)::int as n from emails where to_email = ?`, [ok]);
    expect(messages).toBe(1);
    expect(await deliveryJobs(s, [id])).toBe(1);
  });

  it('sends as usual when the blocklist holds patterns that do not match, and queues no job when all are suppressed', async () => {
    expect((await s.rest('POST', '/suppressions/blocklist', { body: { domain_id: domain.id, patterns: ['^nobody-here@'] } })).status).toBe(201);
    const fine = await post({ to: [{ email: to() }] });
    expect(fine.status).toBe(202);
    expect(fine.body).toBeNull();
    const [e] = await sql(s, 'select status from emails where message_id = ?', [fine.headers.get('x-message-id')]);
    expect(e.status).toBe('queued');
    const blocked = `nobody-here@${Date.now()}.example.net`;
    const none = await post({ to: [{ email: blocked }] });
    expect(none.status).toBe(202);
    expect(none.body.warnings[0].type).toBe('ALL_SUPPRESSED');
    const id = none.headers.get('x-message-id')!;
    expect((await sql(s, 'select status from messages where id = ?', [id]))[0].status).toBe('sent');
    expect(await deliveryJobs(s, [id])).toBe(0);
  });
});
