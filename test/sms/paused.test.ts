import type { JobAttempt } from '../../src/jobs/job.js';
import { sendSmsMessage } from '../../src/modules/sms/sms.deliver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { activityOf, assignNumber, phone, sql } from './support.js';

/**
 * The api role alone: jobs wait in pg-boss, and this file runs the send job by hand, so the
 * moment a number is paused relative to the send is under the test's control.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
});
afterAll(async () => {
  await s?.close();
});

const attempt: JobAttempt = { id: 'by-hand', retryCount: 0, retryLimit: 5 };
const jobsFor = (id: string) => sql(s, `select state from pgboss.job where name = 'sms.send' and data->>'sms_message_id' = ?`, [id]);

describe('a number paused after a send was accepted', () => {
  it('holds its texts (the message shows paused) until it is unpaused, which enqueues the send again', async () => {
    const n = await assignNumber(s);
    const res = await s.rest('POST', '/sms', { body: { from: n.telephone_number, to: [phone()], text: 'held' } });
    const id = res.headers.get('x-sms-message-id')!;
    expect(await jobsFor(id)).toHaveLength(1);
    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: true } })).status).toBe(200);

    await sendSmsMessage(s.app.services, id, attempt);
    const [held] = await sql(s, 'select id, status from sms where message_id = ?', [id]);
    expect(held.status).toBe('queued');
    expect(await activityOf(s, held.id)).toEqual(['queued']);
    expect((await s.rest('GET', `/sms-messages/${id}`)).body.data.paused).toBe(true);
    expect((await s.rest('GET', '/sms-messages?limit=100')).body.data.find((m: { id: string }) => m.id === id).paused).toBe(true);

    expect((await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: false } })).status).toBe(200);
    expect(await jobsFor(id)).toHaveLength(2);
    await sendSmsMessage(s.app.services, id, attempt);
    expect((await sql(s, 'select status from sms where id = ?', [held.id]))[0].status).toBe('delivered');
    expect((await s.rest('GET', `/sms-messages/${id}`)).body.data.paused).toBe(false);

    // Run again (a duplicate job): nothing is sent twice.
    await sendSmsMessage(s.app.services, id, attempt);
    expect(await activityOf(s, held.id)).toEqual(['queued', 'sent', 'delivered']);
  });

  it('unpausing a number with nothing waiting enqueues nothing', async () => {
    const count = () => sql(s, `select id from pgboss.job where name = 'sms.send'`).then((r) => r.length);
    const before = await count();
    const n = await assignNumber(s);
    await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: true } });
    await s.rest('PUT', `/sms-numbers/${n.id}`, { body: { paused: false } });
    expect(await count()).toBe(before);
  });
});
