import { startTestServer, type TestServer } from '../support/server.js';
import { slowestHealthDuring } from '../support/loop-watch.js';

/**
 * A verification list upload past its bounds is refused quickly and says so in a few lines:
 * 10,000 addresses a request, 320 characters an address, the body's limit, and no more than ten
 * errors for the bad items of one list however many there are.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(() => s?.close());

const create = (body: unknown) => s.rest('POST', '/email-verification', { rawBody: JSON.stringify(body) });

it('answers a list of empty addresses with ten errors, and refuses a million of them unread, without holding the event loop', async () => {
  const empties = await create({ name: 'Empty', emails: Array(10_000).fill('') });
  expect(empties.status).toBe(422);
  expect(empties.body.errors).toEqual(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`emails.${i}`, [`The emails.${i} field is required.`]])));
  expect(empties.text.length).toBeLessThan(2000);
  // No list of a JSON body may pass 20,000 items (src/lib/json-shape.ts): refused while it is counted.
  const emails = Array(1_000_000).fill('');
  const { result: res, slowestMs } = await slowestHealthDuring(s.url, create({ name: 'Empty', emails }));
  expect(res.status).toBe(422);
  expect(res.body.errors).toEqual({ emails: ['The emails may not have more than 20000 items.'] });
  expect(slowestMs).toBeLessThan(1000);
  expect((await s.rest('GET', '/email-verification')).body.data).toEqual([]);
});

it('refuses more addresses than a request may carry, an address past 320 characters, and a body past its limit', async () => {
  const many = await create({ name: 'Many', emails: Array.from({ length: 10_001 }, (_, i) => `u${i}@example.test`) });
  expect(many.status).toBe(422);
  expect(many.body.errors).toEqual({ emails: ['The emails may not have more than 10000 items.'] });
  const long = await create({ name: 'Long', emails: ['a@example.test', `${'x'.repeat(321)}@example.test`] });
  expect(long.body.errors).toEqual({ 'emails.1': ['The emails.1 may not be greater than 320 characters.'] });
  const huge = await create({ name: 'Huge', emails: [`${'x'.repeat(5 * 1024 * 1024)}@example.test`] });
  expect(huge.status).toBe(413);
  const gql = await s.gql('mutation($e: [String!]!) { create_email_verification_list(name: "G", emails: $e) { id } }', {
    e: Array.from({ length: 10_001 }, (_, i) => `u${i}@example.test`),
  });
  expect(gql.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', errors: { emails: ['The emails may not have more than 10000 items.'] } });
  expect((await s.rest('GET', '/email-verification')).body.data).toEqual([]);
});
