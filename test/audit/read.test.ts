import pg from 'pg';
import { seedDomain } from '../support/factories.js';
import { ISO, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { auditEvents, auditQuery } from './support.js';

/** Reading the log: pager, filters, account isolation, the scope and domain-limited tokens. */
let s: TestServer;
let db: pg.Client;
let other: { id: string; token: string };
const names = Array.from({ length: 12 }, (_, i) => `paged ${i}`);
const tokenIds: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  // A fresh account: its log holds exactly what this file does in it.
  other = await createAccount(s, 'Audit reader');
  for (const name of names) {
    const res = await s.rest('POST', '/token', { token: other.token, body: { name, scopes: ['email_full'] } });
    tokenIds.push(res.body.data.id);
  }
});
afterAll(async () => {
  await db?.end();
  await s?.close();
});

describe('pager', () => {
  it("lists newest first, ten to a page; the account's first token was the operator's doing", async () => {
    const first = await auditQuery(s, { limit: 10 }, other.token);
    const page1 = first.body.data.audit_events;
    expect(page1.meta).toEqual({ current_page: 1, from: 1, to: 10, last_page: 2, per_page: 10, total: 13 });
    expect(page1.data.map((e: any) => e.changes.name.to)).toEqual([...names].reverse().slice(0, 10));
    const page2 = (await auditQuery(s, { limit: 10, page: 2 }, other.token)).body.data.audit_events;
    expect(page2.meta).toMatchObject({ current_page: 2, from: 11, to: 13, total: 13 });
    expect(page2.data.map((e: any) => e.changes.name.to)).toEqual(['paged 1', 'paged 0', 'Admin token']);
    expect(page2.data[2]).toMatchObject({ action: 'token.created', actor: { type: 'operator', id: null, name: 'operator' }, ip: null });
    const empty = (await auditQuery(s, { limit: 10, page: 3 }, other.token)).body.data.audit_events;
    expect(empty).toMatchObject({ data: [], meta: { from: null, to: null, total: 13 } });
  });

  it('refuses a limit out of bounds', async () => {
    const res = await auditQuery(s, { limit: 5 }, other.token);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.errors).toEqual({ limit: ['The limit must be at least 10.'] });
  });

  it('answers on /v1 in the paged envelope', async () => {
    const res = await s.rest('GET', '/audit-events?limit=10&page=2', { token: other.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    expect(res.body.meta).toMatchObject({ current_page: 2, total: 13, per_page: 10 });
    expect(res.body.links.prev).toContain('/v1/audit-events?');
    const [row] = res.body.data;
    expect(Object.keys(row).sort()).toEqual(['action', 'actor', 'changes', 'created_at', 'id', 'ip', 'subject_id', 'subject_type']);
    expect(row.created_at).toMatch(ISO);
    expect(row.actor).toMatchObject({ type: 'token', name: 'Admin token' });
  });
});

describe('filters', () => {
  it('by action and by subject', async () => {
    await s.rest('PUT', `/token/${tokenIds[3]}/settings`, { token: other.token, body: { status: 'pause' } });
    const paused = await auditEvents(s, { action: 'token.paused' }, other.token);
    expect(paused.map((e) => e.subject_id)).toEqual([tokenIds[3]]);
    const history = await auditEvents(s, { subject_id: tokenIds[3] }, other.token);
    expect(history.map((e) => e.action)).toEqual(['token.paused', 'token.created']);
    const v1 = await s.rest('GET', `/audit-events?action=token.created&subject_id=${tokenIds[3]}`, { token: other.token });
    expect(v1.body.data.map((e: any) => e.action)).toEqual(['token.created']);
  });

  it('by date range, inclusive, with a bare date_to reaching through its day', async () => {
    const set = (id: string, at: string) => db.query('update audit_events set created_at = $1 where subject_id = $2 and action = $3', [at, id, 'token.created']);
    await set(tokenIds[0], '2020-01-01T00:00:00Z');
    await set(tokenIds[1], '2020-01-02T23:59:59Z');
    await set(tokenIds[2], '2020-01-03T00:00:00Z');
    const ids = async (args: Record<string, unknown>) => (await auditEvents(s, { action: 'token.created', ...args }, other.token)).map((e) => e.subject_id);
    expect(await ids({ date_from: '2020-01-01T00:00:00Z', date_to: '2020-01-02' })).toEqual([tokenIds[1], tokenIds[0]]);
    expect(await ids({ date_from: String(Date.UTC(2020, 0, 2) / 1000), date_to: '2020-01-03T00:00:00Z' })).toEqual([tokenIds[2], tokenIds[1]]);
    expect(await ids({ date_to: '2020-01-01 00:00:00' })).toEqual([tokenIds[0]]);
    // The other nine of this file, and the account's first token.
    expect((await ids({ date_from: '2021-01-01' })).length).toBe(10);
  });

  it('refuses bad dates, a reversed range and an unknown action on both surfaces', async () => {
    const bad = await auditQuery(s, { date_from: 'yesterday' }, other.token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].extensions.errors).toEqual({ date_from: ['The date from must be an ISO 8601 timestamp or a Unix timestamp.'] });
    const reversed = await s.rest('GET', '/audit-events?date_from=2020-02-01&date_to=2020-01-01', { token: other.token });
    expect(reversed.status).toBe(422);
    expect(reversed.body).toEqual({
      message: 'The given data was invalid.',
      errors: { date_to: ['The date to must be a date after or equal to date from.'] },
    });
    const action = await s.rest('GET', '/audit-events?action=token.exploded', { token: other.token });
    expect(action.status).toBe(422);
    expect(action.body.errors).toEqual({ action: ['The selected action is invalid.'] });
  });
});

describe('who may read what', () => {
  it('keeps each account to its own events', async () => {
    const mine = await s.rest('POST', '/token', { body: { name: 'admin side', scopes: ['email_full'] } });
    const adminIds = (await auditEvents(s)).map((e) => e.subject_id);
    expect(adminIds).toContain(mine.body.data.id);
    expect(adminIds.some((id) => tokenIds.includes(id))).toBe(false);
    const otherIds = (await auditEvents(s, {}, other.token)).map((e) => e.subject_id);
    expect(otherIds).not.toContain(mine.body.data.id);
    // Another account's subject filters to nothing rather than revealing anything.
    expect(await auditEvents(s, { subject_id: tokenIds[5] })).toEqual([]);
  });

  it('needs tokens_full', async () => {
    const without = await tokenWith(s, ['users_full', 'webhooks_full', 'smtp_users_full']);
    const gql = await auditQuery(s, {}, without);
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await s.rest('GET', '/audit-events', { token: without })).status).toBe(403);
    const withScope = await tokenWith(s, ['tokens_full']);
    expect((await s.rest('GET', '/audit-events', { token: withScope })).status).toBe(200);
  });

  it('shows a domain-limited token only the events about its own domain', async () => {
    const a = await seedDomain(s);
    const b = await seedDomain(s);
    const userA = await s.rest('POST', `/domains/${a.id}/smtp-users`, { body: { name: 'on a' } });
    const userB = await s.rest('POST', `/domains/${b.id}/smtp-users`, { body: { name: 'on b' } });
    const limited = await tokenWith(s, ['tokens_full', 'smtp_users_full'], a.id);
    const limitedId = (await s.gql('query { whoami { token_id } }', {}, limited)).body.data.whoami.token_id;
    await s.rest('PUT', `/domains/${a.id}/smtp-users/${userA.body.data.id}`, { token: limited, body: { enabled: false } });

    const seen = await auditEvents(s, {}, limited);
    expect(seen.map((e) => [e.action, e.subject_id])).toEqual([
      ['smtp_user.updated', userA.body.data.id],
      ['token.created', limitedId],
      ['smtp_user.created', userA.body.data.id],
    ]);
    expect(await auditEvents(s, { subject_id: userB.body.data.id }, limited)).toEqual([]);
    // The unlimited admin token sees both domains.
    expect((await auditEvents(s, { subject_id: userB.body.data.id })).map((e) => e.action)).toEqual(['smtp_user.created']);
  });
});
