import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { deliveryJobs, sql } from './helpers.js';

/**
 * Under load, sends that arrive while acceptance statements run share the next one (group
 * commit, sending/accept.batch.ts). With one lane, concurrent sends must go in batches, and each
 * must still be what it would have been alone: every message, email, recipient (once per domain,
 * however many sends share it), job, activity and count written; a send with a suppressed
 * recipient judged on its own; two accounts' sends kept apart.
 */
describe('acceptance under concurrency (group commit)', () => {
  let s: TestServer;
  let mine: { id: string; name: string }[];
  let theirs: { id: string; name: string };
  let other: { id: string; token: string };

  beforeAll(async () => {
    s = await startTestServer({ roles: ['api'], env: { ACCEPT_LANES: '1', ACCEPT_BATCH_MAX: '8' } });
    mine = [await seedDomain(s), await seedDomain(s)];
    other = await createAccount(s, 'Batch neighbour');
    theirs = await seedDomain(s, { accountId: other.id });
  }, 60_000);
  afterAll(() => s?.close());

  /** Sends in `postbox_accept_statement_sends` so far: [statements, sends]. */
  async function statements(): Promise<[number, number]> {
    const text = await scrapeMetrics(s);
    const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return [read('postbox_accept_statement_sends_count'), read('postbox_accept_statement_sends_sum')];
  }

  it('writes every concurrent send in full, sharing statements, with a recipient they share upserted once per domain', async () => {
    const tag = `b${Date.now()}`;
    const shared = `${tag}-shared@example.net`;
    const [count0, sum0] = await statements();
    const sends = Array.from({ length: 24 }, (_, i) => {
      const domain = i % 3 === 2 ? theirs : mine[i % 2];
      return s.rest('POST', '/email', {
        token: domain === theirs ? other.token : undefined,
        body: { from: { email: `x@${domain.name}` }, to: [{ email: `${tag}-${i}@example.net` }, { email: shared }], subject: `S${i}`, text: 'T', tags: [tag] },
      });
    });
    const answers = await Promise.all(sends);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const ids = answers.map((a) => a.headers.get('x-message-id')!);
    expect(new Set(ids).size).toBe(24);

    const [count1, sum1] = await statements();
    expect(sum1 - sum0).toBe(24);
    // Fewer statements than sends: they went together.
    expect(count1 - count0).toBeLessThan(24);

    const messages = await sql(s, 'select id, account_id, domain_id, subject from messages where id in (?) order by subject', [ids]);
    expect(messages).toHaveLength(24);
    for (const m of messages) {
      const i = Number(m.subject.slice(1));
      expect(m.id).toBe(ids[i]);
      expect(m.domain_id).toBe((i % 3 === 2 ? theirs : mine[i % 2]).id);
      expect(m.account_id).toBe(i % 3 === 2 ? other.id : (await sql(s, 'select account_id from domains where id = ?', [mine[0].id]))[0].account_id);
    }
    // One recipient row per domain for the shared address, and every email joined to its own domain's.
    const sharedRows = await sql(s, 'select domain_id from recipients where email = ? order by domain_id', [shared]);
    expect(sharedRows.map((r) => r.domain_id)).toEqual([mine[0].id, mine[1].id, theirs.id].sort());
    const emails = await sql(s, 'select e.domain_id, r.domain_id as r_domain, e.status from emails e join recipients r on r.id = e.recipient_id where e.message_id in (?)', [ids]);
    expect(emails).toHaveLength(48);
    for (const e of emails) {
      expect(e.r_domain).toBe(e.domain_id);
      expect(e.status).toBe('queued');
    }
    expect(await deliveryJobs(s, ids)).toBe(24);
    const [{ queued }] = await sql(s, `select count(*)::int as queued from activities a join emails e on e.id = a.email_id where e.message_id in (?) and a.type = 'queued'`, [ids]);
    expect(queued).toBe(48);
    // The rollup counts every one of them, per account.
    const counted = await sql(s, `select account_id, sum(count)::int as n from activity_stats where type = 'queued' and ? = any(tags) group by account_id`, [tag]);
    expect(Object.fromEntries(counted.map((c) => [c.account_id === other.id ? 'theirs' : 'mine', c.n]))).toEqual({ mine: 32, theirs: 16 });
    // Each account sees its own sends only.
    const listed = await s.rest('GET', `/activity/${theirs.id}?limit=100&date_from=${Math.floor(Date.now() / 1000) - 600}&date_to=${Math.floor(Date.now() / 1000) + 60}`, { token: other.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.every((a: { email: { recipient: { email: string } } }) => a.email.recipient.email.startsWith(tag))).toBe(true);
    expect(listed.body.data).toHaveLength(16);
  });

  it('judges a send with a suppressed recipient on its own when it shares a batch with others', async () => {
    const tag = `u${Date.now()}`;
    const gone = `${tag}-gone@example.net`;
    expect((await s.rest('POST', '/suppressions/unsubscribes', { body: { domain_id: mine[0].id, recipients: [gone] } })).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        s.rest('POST', '/email', {
          body: { from: { email: `x@${mine[0].name}` }, to: [{ email: i === 5 ? gone : `${tag}-${i}@example.net` }], subject: `S${i}`, text: 'T' },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    // Only the send to the unsubscribed address says so.
    expect(answers.map((a) => a.body === null)).toEqual(answers.map((_, i) => i !== 5));
    expect(answers[5].body.warnings[0].type).toBe('ALL_SUPPRESSED');
    const ids = answers.map((a) => a.headers.get('x-message-id')!);
    const emails = await sql(s, 'select message_id, status, suppression_reason from emails where message_id in (?)', [ids]);
    expect(emails).toHaveLength(12);
    for (const e of emails) {
      const i = ids.indexOf(e.message_id);
      expect([e.status, e.suppression_reason]).toEqual(i === 5 ? ['suppressed', 'unsubscribed'] : ['queued', null]);
    }
    expect(await deliveryJobs(s, ids)).toBe(11);
  });
});
