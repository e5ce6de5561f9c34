import pg from 'pg';
import { SuppressionService } from '../../src/modules/suppressions/suppression.service.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';

let s: TestServer;
let accountId: string;
beforeAll(async () => {
  s = await startTestServer();
  accountId = await accountIdOf(s);
});
afterAll(async () => {
  await s?.close();
});

const post = async (slug: string, body: Record<string, unknown>, token?: string) => {
  const res = await s.rest('POST', `/suppressions/${slug}`, { body, token });
  if (res.status !== 201) throw new Error(`${slug}: ${res.status} ${res.text}`);
  return res.body.data;
};
const reasons = (domainId: string, emails: string[], account = accountId) =>
  new SuppressionService(s.app.services.orm.em.fork()).reasonsFor(account, domainId, emails);

describe('SuppressionService.reasonsFor', () => {
  it('gives each reason, by list, and nothing for a clean address', async () => {
    const d = await seedDomain(s);
    await post('on-hold-list', { domain_id: d.id, recipients: ['held@example.org'] });
    await post('hard-bounces', { domain_id: d.id, recipients: ['bounced@example.org'] });
    await post('unsubscribes', { domain_id: d.id, recipients: ['gone@example.org'] });
    await post('spam-complaints', { domain_id: d.id, recipients: ['angry@example.org'] });
    await post('blocklist', { domain_id: d.id, recipients: ['blocked@example.org'], patterns: ['@spam\\.test$'] });
    const got = await reasons(d.id, [
      'held@example.org', 'Bounced@Example.org', 'gone@example.org', 'angry@example.org',
      'BLOCKED@example.org', 'anyone@spam.test', 'clean@example.org',
    ]);
    expect(Object.fromEntries(got)).toEqual({
      'held@example.org': 'on_hold',
      'Bounced@Example.org': 'hard_bounced',
      'gone@example.org': 'unsubscribed',
      'angry@example.org': 'spam_complained',
      'BLOCKED@example.org': 'blocklisted',
      'anyone@spam.test': 'blocklisted',
    });
    expect((await reasons(d.id, [])).size).toBe(0);
  });

  it('on hold counts only until on_hold_until; the first reason of several wins', async () => {
    const d = await seedDomain(s);
    const [expired] = await post('on-hold-list', { domain_id: d.id, recipients: ['expired@example.org'] });
    await post('on-hold-list', { domain_id: d.id, recipients: ['both@example.org'] });
    await post('hard-bounces', { domain_id: d.id, recipients: ['both@example.org'] });
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    await db.query(`update suppressions set on_hold_until = now() - interval '1 minute' where id = $1`, [expired.id]);
    await db.end();
    expect(Object.fromEntries(await reasons(d.id, ['expired@example.org', 'both@example.org']))).toEqual({
      'both@example.org': 'on_hold',
    });
    // Holding an address whose hold ran out starts a new hold.
    const [renewed] = await post('on-hold-list', { domain_id: d.id, recipients: ['expired@example.org'] });
    expect(renewed.id).toBe(expired.id);
    expect(Date.parse(renewed.on_hold_until)).toBeGreaterThan(Date.now());
    expect((await reasons(d.id, ['expired@example.org'])).get('expired@example.org')).toBe('on_hold');
  });

  it('applies the account-wide blocklist to every domain, a domain\'s only to itself', async () => {
    const a = await seedDomain(s);
    const b = await seedDomain(s);
    await post('blocklist', { patterns: ['^ceo@'] });
    await post('blocklist', { domain_id: a.id, recipients: ['only-a@example.org'] });
    await post('unsubscribes', { domain_id: a.id, recipients: ['unsub-a@example.org'] });
    const emails = ['ceo@example.org', 'only-a@example.org', 'unsub-a@example.org'];
    expect(Object.fromEntries(await reasons(a.id, emails))).toEqual({
      'ceo@example.org': 'blocklisted',
      'only-a@example.org': 'blocklisted',
      'unsub-a@example.org': 'unsubscribed',
    });
    expect(Object.fromEntries(await reasons(b.id, emails))).toEqual({ 'ceo@example.org': 'blocklisted' });
  });

  it('never applies another account\'s lists', async () => {
    const other = await createAccount(s, 'Matcher other');
    const theirDomain = await seedDomain(s, { token: other.token });
    await post('blocklist', { patterns: ['^victim@'] }, other.token);
    const ours = await seedDomain(s);
    expect((await reasons(ours.id, ['victim@example.org'])).size).toBe(0);
    expect((await reasons(theirDomain.id, ['victim@example.org'], other.id)).get('victim@example.org')).toBe('blocklisted');
  });
});

describe('GraphQL', () => {
  it('adds, lists and deletes on every list', async () => {
    const d = await seedDomain(s);
    const added = await s.gql(
      `mutation($d: ID!) {
        add_to_blocklist(domain_id: $d, patterns: ["^gql@"]) { id type pattern domain { id name created_at } created_at updated_at }
        add_hard_bounces(domain_id: $d, recipients: ["hb@example.org"]) { id reason created_at recipient { id email } }
        add_spam_complaints(domain_id: $d, recipients: ["sc@example.org"]) { id }
        add_unsubscribes(domain_id: $d, recipients: ["un@example.org"]) { id }
        add_on_hold_list(domain_id: $d, recipients: ["oh@example.org"]) { id on_hold_until recipient { email } }
      }`,
      { d: d.id },
    );
    expect(added.body.errors).toBeUndefined();
    const m = added.body.data;
    expect(m.add_to_blocklist[0]).toMatchObject({ type: 'pattern', pattern: '^gql@', domain: { id: d.id, name: d.name } });
    expect(m.add_to_blocklist[0].created_at).toMatch(ISO);
    expect(m.add_hard_bounces[0]).toMatchObject({ reason: 'Added via API', recipient: { email: 'hb@example.org' } });
    expect(m.add_on_hold_list[0].on_hold_until).toMatch(ISO);

    const listed = await s.gql(
      `query($d: ID) {
        blocklist(domain_id: $d) { id } hard_bounces(domain_id: $d) { id } spam_complaints(domain_id: $d) { id }
        unsubscribes(domain_id: $d) { id } on_hold_list(domain_id: $d, limit: 10) { id }
      }`,
      { d: d.id },
    );
    expect(listed.body.data).toEqual({
      blocklist: [{ id: m.add_to_blocklist[0].id }],
      hard_bounces: [{ id: m.add_hard_bounces[0].id }],
      spam_complaints: [{ id: m.add_spam_complaints[0].id }],
      unsubscribes: [{ id: m.add_unsubscribes[0].id }],
      on_hold_list: [{ id: m.add_on_hold_list[0].id }],
    });

    const deleted = await s.gql(
      `mutation($d: ID!, $ids: [ID!]) {
        delete_from_blocklist(domain_id: $d, all: true) delete_hard_bounces(domain_id: $d, ids: $ids)
        delete_spam_complaints(domain_id: $d, all: true) delete_unsubscribes(domain_id: $d, all: true)
        delete_on_hold_list(domain_id: $d, all: true)
      }`,
      { d: d.id, ids: [m.add_hard_bounces[0].id] },
    );
    expect(deleted.body.data).toEqual({
      delete_from_blocklist: true, delete_hard_bounces: true, delete_spam_complaints: true,
      delete_unsubscribes: true, delete_on_hold_list: true,
    });
    const after = await s.gql(`query($d: ID) { blocklist(domain_id: $d) { id } hard_bounces(domain_id: $d) { id } }`, { d: d.id });
    expect(after.body.data).toEqual({ blocklist: [], hard_bounces: [] });
  });

  it('answers the same errors as /v1', async () => {
    const d = await seedDomain(s);
    const bad = await s.gql(`mutation($d: ID!) { add_unsubscribes(domain_id: $d, recipients: ["x", "ok@example.org"]) { id } }`, { d: d.id });
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', errors: { 'recipients.0': ['The recipients.0 must be a valid email address.'] } });
    const empty = await s.gql(`mutation($d: ID!) { add_unsubscribes(domain_id: $d, recipients: []) { id } }`, { d: d.id });
    expect(empty.body.errors[0].extensions.errors).toEqual({ recipients: ['The recipients field is required.'] });
    const missing = await s.gql(`query { blocklist(domain_id: "nope") { id } }`);
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const read = await tokenWith(s, ['suppressions_read']);
    const denied = await s.gql(`mutation { delete_from_blocklist(all: true) }`, {}, read);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
