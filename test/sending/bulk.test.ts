import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { emailsOf, settled, until } from './helpers.js';

/** POST /v1/bulk-email and GET /v1/bulk-email/{id} (COMPAT.md "Bulk email"). */
describe('bulk email', () => {
  let s: TestServer;
  let receiver: Receiver;
  let from: string;
  /** bulk_email.completed, as a webhook of the account's domain gets it (an event of the account reaches every domain's webhooks). */
  let events: EventTap;

  beforeAll(async () => {
    s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startReceiver();
    const domain = await seedDomain(s, { dkim: true });
    from = `bulk@${domain.name}`;
    events = await tapEvents(s, receiver, { domainId: domain.id }, { types: ['bulk_email.completed'] });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
  });

  const completed = (id: string, token?: string) =>
    until(async () => {
      const res = await s.rest('GET', `/bulk-email/${id}`, { token });
      return res.body.data?.state === 'completed' ? res : null;
    }, 15_000, 'the bulk send to complete');

  it('accepts an array of sends, sends the valid ones and reports the rest', async () => {
    await s.rest('POST', '/suppressions/unsubscribes', { body: { domain_id: (await s.rest('GET', '/domains')).body.data[0].id, recipients: ['left@example.net'] } });
    const ok = (to: string) => ({ from: { email: from }, to: [{ email: to }], subject: 'Bulk', text: 'b' });
    const res = await s.rest('POST', '/bulk-email', {
      body: [
        ok('one@example.net'),
        { ...ok('two@example.net'), from: { email: 'x@elsewhere.example' } },
        { subject: 'no recipients' },
        { ...ok('three@example.net'), to: [{ email: 'three@example.net' }, { email: 'left@example.net' }] },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: 'The bulk email is being processed.', bulk_email_id: expect.stringMatching(/^[a-z0-9]{24}$/) });
    const done = await completed(res.body.bulk_email_id);
    const data = done.body.data;
    expect(Object.keys(data).sort()).toEqual([
      'created_at', 'id', 'messages_id', 'state', 'suppressed_recipients', 'suppressed_recipients_count',
      'total_recipients_count', 'updated_at', 'validation_errors', 'validation_errors_count',
    ]);
    expect(data).toMatchObject({ state: 'completed', total_recipients_count: 4, validation_errors_count: 2, suppressed_recipients_count: 1 });
    expect(data.validation_errors['message.1.from.email'][0]).toMatch(/must be verified/);
    expect(data.validation_errors['message.2.to']).toEqual(['The to field is required.']);
    expect(data.suppressed_recipients['message.3'].to[0]).toMatchObject({ email: 'left@example.net', reasons: ['unsubscribed'] });
    expect(data.messages_id).toHaveLength(2);
    for (const id of data.messages_id) expect((await settled(s, id))[0].status).toBe('delivered');
    expect((await emailsOf(s, data.messages_id[1])).map((e) => e.status)).toEqual(['delivered', 'suppressed']);
    const completions = (await events.settle()).filter((e) => e.type === 'bulk_email.completed' && e.data.id === data.id);
    expect(completions).toHaveLength(1);
    expect(completions[0].data).toMatchObject({ id: data.id, state: 'completed', messages_id: data.messages_id, validation_errors_count: 2 });
  });

  it('refuses a body that is not a list of objects, and more than 500 items', async () => {
    expect((await s.rest('POST', '/bulk-email', { body: [] })).status).toBe(422);
    const notObjects = await s.rest('POST', '/bulk-email', { body: ['x'] });
    expect(notObjects.status).toBe(422);
    expect(Object.keys(notObjects.body.errors)).toEqual(['emails.0']);
    const many = await s.rest('POST', '/bulk-email', { body: Array.from({ length: 501 }, () => ({})) });
    expect(many.status).toBe(422);
    expect(Object.keys(many.body.errors)).toEqual(['emails']);
  });

  it('is scoped to the account and the email_full scope', async () => {
    const res = await s.rest('POST', '/bulk-email', { body: [{ from: { email: from }, to: [{ email: 'z@example.net' }], subject: 'x', text: 'y' }] });
    const id = res.body.bulk_email_id;
    const other = await createAccount(s, 'Bulk stranger');
    expect((await s.rest('GET', `/bulk-email/${id}`, { token: other.token })).status).toBe(404);
    expect((await s.rest('GET', '/bulk-email/nope')).status).toBe(404);
    const weak = await tokenWith(s, ['domains_read']);
    expect((await s.rest('POST', '/bulk-email', { token: weak, body: [{}] })).status).toBe(403);
    expect((await s.rest('GET', `/bulk-email/${id}`, { token: weak })).status).toBe(403);
  });

  it('works through GraphQL', async () => {
    const res = await s.gql(`mutation($e: [JSONObject!]!) { send_bulk_email(emails: $e) { message bulk_email_id } }`, {
      e: [{ from: { email: from }, to: [{ email: 'gql@example.net' }], subject: 'G', text: 'g' }],
    });
    const id = res.body.data.send_bulk_email.bulk_email_id;
    await completed(id);
    const got = await s.gql(`query($id: ID!) { bulk_email(bulk_email_id: $id) { state messages_id validation_errors_count } }`, { id });
    expect(got.body.data.bulk_email).toMatchObject({ state: 'completed', validation_errors_count: 0 });
    expect(got.body.data.bulk_email.messages_id).toHaveLength(1);
  });
});
