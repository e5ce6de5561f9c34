import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { ADMIN_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let receiver: Receiver;
/** Maintenance events, as a webhook of a domain of the admin account gets them (they reach every account). */
let maintenance: EventTap;
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  maintenance = await tapEvents(s, receiver, { domainId: (await seedDomain(s)).id }, { types: ['maintenance.start', 'maintenance.end'] });
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

const op = (query: string, variables: Record<string, unknown> = {}) => s.gql(query, variables, OPERATOR_TOKEN);

async function newAccount(name = 'Acme') {
  const res = await op(
    `mutation($n: String!) { operator_create_account(name: $n, admin_email: "boss@acme.test") {
       account { id name plan verification_credits created_at } token { accessToken has_full created_at } } }`,
    { n: name },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.operator_create_account;
}

describe('operator API', () => {
  it('creates an account with a full-scope admin token', async () => {
    const { account, token } = await newAccount();
    expect(account).toMatchObject({ name: 'Acme', plan: 'free', verification_credits: 0 });
    expect(token.has_full).toBe(true);
    const me = await s.gql('{ whoami { account_id scopes } }', {}, token.accessToken);
    expect(me.body.data.whoami.account_id).toBe(account.id);
    expect(me.body.data.whoami.scopes).toHaveLength(30);
  });

  it('sets plans and adds verification credits', async () => {
    const { account } = await newAccount('Planned');
    const plan = await op(`mutation($id: ID!) { operator_set_plan(account_id: $id, plan: "professional") { plan } }`, { id: account.id });
    expect(plan.body.data.operator_set_plan.plan).toBe('professional');
    const bad = await op(`mutation($id: ID!) { operator_set_plan(account_id: $id, plan: "platinum") { plan } }`, { id: account.id });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].extensions.errors).toEqual({ plan: ['The selected plan is invalid.'] });
    await op(`mutation($id: ID!) { operator_add_verification_credits(account_id: $id, credits: 100) { verification_credits } }`, { id: account.id });
    const added = await op(`mutation($id: ID!) { operator_add_verification_credits(account_id: $id, credits: 50) { verification_credits } }`, { id: account.id });
    expect(added.body.data.operator_add_verification_credits.verification_credits).toBe(150);
    const missing = await op(`mutation { operator_set_plan(account_id: "nope", plan: "free") { plan } }`);
    expect(missing.status).toBe(404);
  });

  it('assigns SMS numbers once', async () => {
    const { account } = await newAccount('Texter');
    const q = `mutation($id: ID!, $n: String!) { operator_assign_sms_number(account_id: $id, telephone_number: $n) { id telephone_number paused created_at } }`;
    const ok = await op(q, { id: account.id, n: '+15551234567' });
    expect(ok.body.data.operator_assign_sms_number).toMatchObject({ telephone_number: '+15551234567', paused: false });
    const again = await op(q, { id: account.id, n: '+15551234567' });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].extensions.errors).toEqual({ telephone_number: ['The telephone number has already been taken.'] });
    const bad = await op(q, { id: account.id, n: '555-1234' });
    expect(bad.status).toBe(422);
  });

  it('starts and ends maintenance windows, recording both events', async () => {
    const start = await op(`mutation { operator_start_maintenance(note: "db upgrade") { id note started_at ended_at } }`);
    const w = start.body.data.operator_start_maintenance;
    expect(w).toMatchObject({ note: 'db upgrade', ended_at: null });
    const end = await op(`mutation($id: ID!) { operator_end_maintenance(id: $id) { ended_at } }`, { id: w.id });
    expect(end.body.data.operator_end_maintenance.ended_at).not.toBeNull();
    const twice = await op(`mutation($id: ID!) { operator_end_maintenance(id: $id) { ended_at } }`, { id: w.id });
    expect(twice.status).toBe(422);
    const events = (await maintenance.settle()).filter((e) => e.data.maintenance_id === w.id);
    expect(events.map((e) => e.type)).toEqual(['maintenance.start', 'maintenance.end']);
  });

  it('is refused to account tokens (403) and to anonymous callers (401)', async () => {
    const asAccount = await s.gql('{ operator_accounts { id } }', {}, ADMIN_TOKEN);
    expect(asAccount.status).toBe(403);
    const anonymous = await s.gql('{ operator_accounts { id } }', {}, null);
    expect(anonymous.status).toBe(401);
  });

  it('is not reachable on /v1, and the operator token is not an account token there', async () => {
    const res = await s.rest('GET', '/token', { token: OPERATOR_TOKEN });
    expect(res.status).toBe(401);
    const accountQuery = await s.gql('{ tokens { id } }', {}, OPERATOR_TOKEN);
    expect(accountQuery.status).toBe(403);
  });
});
