import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { addressAt, confirmLinkIn, IDENTITY_KEYS, mailsTo, open } from './helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const FIELDS = `id email name reply_to_email reply_to_name is_verified resends add_note personal_note
  domain { id name created_at updated_at }`;

async function ok(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const res = await s.gql(query, variables, token);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  expect(res.status).toBe(200);
  return res.body.data;
}

const CREATE = `mutation($domain_id: ID!, $email: String!, $name: String, $reply_to_email: String, $reply_to_name: String,
  $add_note: Boolean, $personal_note: String) {
  create_sender_identity(domain_id: $domain_id, email: $email, name: $name, reply_to_email: $reply_to_email,
    reply_to_name: $reply_to_name, add_note: $add_note, personal_note: $personal_note) { ${FIELDS} } }`;

describe('GraphQL surface', () => {
  it('runs every operation with the /v1 shapes', async () => {
    const email = addressAt(domain, 'gql');
    const created = (await ok(CREATE, { domain_id: domain.id, email, reply_to_email: 'r@example.org', reply_to_name: 'R' }))
      .create_sender_identity;
    expect(Object.keys(created).sort()).toEqual(IDENTITY_KEYS);
    expect(created).toMatchObject({ email, name: 'gql' + email.slice(3, email.indexOf('@')), is_verified: false, resends: 0 });
    expect(created.domain.created_at).toMatch(ISO);
    const rest = (await s.rest('GET', `/identities/${created.id}`)).body.data;
    expect(created).toEqual(rest);

    const list = await ok(`query($d: ID) { sender_identities(domain_id: $d, query: "GQL", order_by: "email", order: "asc") { id } }`, {
      d: domain.id,
    });
    expect(list.sender_identities).toEqual([{ id: created.id }]);
    expect((await ok(`query($id: ID!) { sender_identity(identity_id: $id) { ${FIELDS} } }`, { id: created.id })).sender_identity).toEqual(created);
    expect(
      (await ok(`query($e: String!) { sender_identity_by_email(email: $e) { id } }`, { e: email.toUpperCase() })).sender_identity_by_email,
    ).toEqual({ id: created.id });

    const updated = await ok(
      `mutation($id: ID!) { update_sender_identity(identity_id: $id, name: "Renamed", add_note: true, personal_note: "note") { name add_note personal_note } }`,
      { id: created.id },
    );
    expect(updated.update_sender_identity).toEqual({ name: 'Renamed', add_note: true, personal_note: 'note' });
    const byEmail = await ok(
      `mutation($e: String!) { update_sender_identity_by_email(email: $e, reply_to_name: null, reply_to_email: null) { reply_to_email reply_to_name name } }`,
      { e: email },
    );
    expect(byEmail.update_sender_identity_by_email).toEqual({ reply_to_email: null, reply_to_name: null, name: 'Renamed' });

    const resent = await ok(`mutation($id: ID!) { resend_sender_identity(identity_id: $id) { resends } }`, { id: created.id });
    expect(resent.resend_sender_identity).toEqual({ resends: 1 });
    const mails = await mailsTo(s, email, 2);
    // Both mails may go out in one worker batch, so which one is newest is not fixed.
    const resentMail = mails.find((m) => m.text.includes('Personal note:\nnote'));
    expect(resentMail).toBeDefined();
    expect((await open(s, confirmLinkIn(resentMail!))).status).toBe(200);
    expect((await ok(`query($id: ID!) { sender_identity(identity_id: $id) { is_verified } }`, { id: created.id })).sender_identity).toEqual({
      is_verified: true,
    });

    expect((await ok(`mutation($id: ID!) { delete_sender_identity(identity_id: $id) }`, { id: created.id })).delete_sender_identity).toBe(true);
    const second = (await ok(CREATE, { domain_id: domain.id, email: addressAt(domain) })).create_sender_identity;
    expect(
      (await ok(`mutation($e: String!) { delete_sender_identity_by_email(email: $e) }`, { e: second.email })).delete_sender_identity_by_email,
    ).toBe(true);
    expect((await s.rest('GET', `/identities/${second.id}`)).status).toBe(404);
  });

  it('answers the same statuses as /v1: 422, 404, 403, 401', async () => {
    const invalid = await s.gql(CREATE, { domain_id: domain.id, email: 'x@elsewhere.example', reply_to_name: 'R' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].message).toBe('The given data was invalid.');
    expect(invalid.body.errors[0].extensions.errors).toEqual({
      email: ['The email must be an address at the selected domain or one of its subdomains.'],
      reply_to_email: ['The reply to email field is required when reply to name is present.'],
    });
    const badOrder = await s.gql(`query { sender_identities(order_by: "name") { id } }`);
    expect(badOrder.status).toBe(422);
    expect(badOrder.body.errors[0].extensions.errors).toEqual({ order_by: ['The selected order by is invalid.'] });

    const missing = await s.gql(`query { sender_identity(identity_id: "nope") { id } }`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].message).toBe('Resource not found.');

    const weak = await tokenWith(s, ['sender_identity_read']);
    const forbidden = await s.gql(CREATE, { domain_id: domain.id, email: addressAt(domain) }, weak);
    expect(forbidden.status).toBe(403);
    expect((await s.gql(`query { sender_identities { id } }`, {}, weak)).status).toBe(200);

    const other = await seedDomain(s);
    const limited = await tokenWith(s, ['sender_identity_full'], other.id);
    const elsewhere = await s.gql(CREATE, { domain_id: domain.id, email: addressAt(domain) }, limited);
    expect(elsewhere.status).toBe(403);

    expect((await s.gql(`query { sender_identities { id } }`, {}, null)).status).toBe(401);
    expect((await s.gql(`query { sender_identities { id } }`, {}, 'mlsn.bogus')).status).toBe(401);
  });

  it('another account gets 404 and an empty list', async () => {
    const mine = (await ok(CREATE, { domain_id: domain.id, email: addressAt(domain) })).create_sender_identity;
    const other = await createAccount(s);
    const res = await s.gql(`query($id: ID!) { sender_identity(identity_id: $id) { id } }`, { id: mine.id }, other.token);
    expect(res.status).toBe(404);
    const del = await s.gql(`mutation($e: String!) { delete_sender_identity_by_email(email: $e) }`, { e: mine.email }, other.token);
    expect(del.status).toBe(404);
    const list = await s.gql(`query { sender_identities(limit: 100) { id } }`, {}, other.token);
    expect(list.body.data.sender_identities).toEqual([]);
  });
});
