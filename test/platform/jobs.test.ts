import { enqueue } from '../../src/jobs/boss.js';
import { outboxRows } from '../../src/jobs/outbox.js';
import { deliverJob } from '../../src/modules/sending/deliver.job.js';
import { dmarcResolveIpsJob } from '../../src/modules/dmarc/dmarc.job.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A job's data is checked against its definition's schema: when queued (or written to the job outbox), and by the worker. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(() => s?.close());

async function settled(id: string): Promise<{ state: string; output: { message?: string } | null }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await s.app.services.boss.getJobById(dmarcResolveIpsJob.name, id);
    if (job && job.state !== 'created' && job.state !== 'active') return { state: job.state, output: job.output as { message?: string } | null };
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('a worker fails a job whose data its schema refuses, and goes on with the next', async () => {
  const bad = await s.app.services.boss.send(dmarcResolveIpsJob.name, { report_id: 42 });
  expect(await settled(bad!)).toMatchObject({ state: expect.stringMatching(/^(retry|failed)$/), output: { message: expect.stringContaining('malformed data for job dmarc.resolve-ips: report_id') } });
  const good = await s.app.services.boss.send(dmarcResolveIpsJob.name, { report_id: 'no-such-report' });
  expect((await settled(good!)).state).toBe('completed');
}, 30_000);

it('enqueue refuses data its schema refuses, and queues nothing', async () => {
  const bad: any = { report_id: 43 };
  const em = s.app.services.orm.em.fork();
  await expect(em.transactional((tx) => enqueue(tx, s.app.services.boss, dmarcResolveIpsJob, bad))).rejects.toThrow(/report_id/);
  const { count } = (await em.execute(`select count(*)::int as count from pgboss.job where name = ? and data->>'report_id' = '43'`, [dmarcResolveIpsJob.name]))[0];
  expect(count).toBe(0);
});

it('the job outbox refuses data its schema refuses, and keeps what the schema keeps', () => {
  const bad: any = { message_id: 42 };
  expect(() => outboxRows(deliverJob, [bad])).toThrow(/message_id/);
  const extra: any = { message_id: 'm1', surplus: true };
  expect(JSON.parse(outboxRows(deliverJob, [extra]))).toEqual([{ queue: deliverJob.name, data: { message_id: 'm1' }, start_after: null }]);
});
