import pg from 'pg';
import { seedDomain } from '../support/factories.js';
import { subscribe } from '../support/sse.js';
import { startTestServer, tokenWith, type TestServer } from '../support/server.js';

/**
 * What a token may do to the account's other tokens: a domain-limited token reaches only tokens
 * of its domain, grants only what it holds, and cannot pause or delete a stronger token. And a
 * changed token's live streams end.
 */
let s: TestServer;
let db: pg.Client;
let adminId: string;
let mine: { id: string; name: string };
let other: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  adminId = (await s.gql('{ whoami { token_id } }')).body.data.whoami.token_id;
  mine = await seedDomain(s);
  other = await seedDomain(s);
});
afterAll(async () => {
  await db?.end();
  await s?.close();
});

const tokenCount = async () => Number((await db.query('select count(*) from api_tokens')).rows[0].count);
const statusOf = async (id: string) => (await db.query('select status from api_tokens where id = $1', [id])).rows[0]?.status;

describe('a domain-limited token and tokens of no domain', () => {
  it('cannot read, pause, rename or delete the account-wide admin token: 404, nothing changed', async () => {
    const limited = await tokenWith(s, ['tokens_full'], mine.id);
    for (const [method, path, body] of [
      ['GET', `/token/${adminId}`, undefined],
      ['PUT', `/token/${adminId}/settings`, { status: 'pause' }],
      ['PUT', `/token/${adminId}`, { name: 'taken over' }],
      ['DELETE', `/token/${adminId}`, undefined],
    ] as const) {
      const res = await s.rest(method, path, { token: limited, body });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { message: 'Resource not found.' }]);
    }
    expect(await statusOf(adminId)).toBe('unpause');
    const gql = await s.gql('mutation($id: ID!) { update_token_settings(token_id: $id, status: "pause") { id } }', { id: adminId }, limited);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const list = await s.rest('GET', '/token?limit=100', { token: limited });
    expect(list.body.data.map((t: any) => t.id)).not.toContain(adminId);
    expect(await statusOf(adminId)).toBe('unpause');
  });

  it('makes tokens of its own domain when none is named (200 with the domain, never a 500 that stored one)', async () => {
    const limited = await tokenWith(s, ['tokens_full', 'email_full'], mine.id);
    const before = await tokenCount();
    const res = await s.rest('POST', '/token', { token: limited, body: { name: 'Child', scopes: ['email_full'] } });
    expect(res.status).toBe(200);
    expect(res.body.data.domain).toMatchObject({ id: mine.id, name: mine.name });
    expect(await tokenCount()).toBe(before + 1);
    const gql = await s.gql('mutation { create_token(name: "Child2", scopes: ["email_full"]) { id domain { id name } } }', {}, limited);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.create_token.domain).toEqual({ id: mine.id, name: mine.name });
  });

  it('cannot make a token of another domain (403), nor of scopes it does not hold (403); nothing stored', async () => {
    const limited = await tokenWith(s, ['tokens_full', 'email_full'], mine.id);
    const before = await tokenCount();
    const elsewhere = await s.rest('POST', '/token', { token: limited, body: { name: 'x', scopes: ['email_full'], domain_id: other.id } });
    expect([elsewhere.status, elsewhere.body.message]).toEqual([403, 'This token is limited to another domain.']);
    const wider = await s.rest('POST', '/token', { token: limited, body: { name: 'x', scopes: ['email_full', 'domains_full'], domain_id: mine.id } });
    expect([wider.status, wider.body.message]).toEqual([403, 'A token can only grant scopes it holds itself.']);
    expect(await tokenCount()).toBe(before);
  });
});

describe('scopes', () => {
  it('a token grants only scopes it holds (full implies read), on both surfaces', async () => {
    const weak = await tokenWith(s, ['tokens_full', 'domains_full']);
    const ok = await s.rest('POST', '/token', { token: weak, body: { name: 'read', scopes: ['domains_read'] } });
    expect(ok.status).toBe(200);
    const escalate = await s.rest('POST', '/token', { token: weak, body: { name: 'all', scopes: ['domains_full', 'users_full'] } });
    expect(escalate.status).toBe(403);
    const gql = await s.gql('mutation { create_token(name: "x", scopes: ["email_full"]) { id } }', {}, weak);
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('a lesser token cannot pause, rename or delete a token with scopes it lacks; it may change itself', async () => {
    const strong = await tokenWith(s, ['tokens_full', 'email_full'], mine.id);
    const strongId = (await s.gql('{ whoami { token_id } }', {}, strong)).body.data.whoami.token_id;
    const weak = await tokenWith(s, ['tokens_full'], mine.id);
    const weakId = (await s.gql('{ whoami { token_id } }', {}, weak)).body.data.whoami.token_id;
    expect((await s.rest('PUT', `/token/${strongId}/settings`, { token: weak, body: { status: 'pause' } })).status).toBe(403);
    expect((await s.rest('PUT', `/token/${strongId}`, { token: weak, body: { name: 'mine now' } })).status).toBe(403);
    expect((await s.rest('DELETE', `/token/${strongId}`, { token: weak })).status).toBe(403);
    expect(await statusOf(strongId)).toBe('unpause');
    expect((await s.rest('PUT', `/token/${weakId}`, { token: weak, body: { name: 'renamed' } })).status).toBe(200);
    // The stronger one may change the weaker.
    expect((await s.rest('PUT', `/token/${weakId}/settings`, { token: strong, body: { status: 'pause' } })).status).toBe(200);
  });
});

describe('live streams of a changed token', () => {
  const open = async (token: string) => {
    const stream = await subscribe(s, 'subscription { token_events { action token { name } } }', token);
    // Live: it hears a change made by the admin.
    await stream.live((i) => s.rest('POST', '/token', { body: { name: `probe-${i}`, scopes: ['email_full'] } }), (e) => /^probe-/.test(e.data?.token_events?.token?.name));
    return stream;
  };
  const ended = async (stream: Awaited<ReturnType<typeof open>>, ms: number) => {
    const started = Date.now();
    for (;;) {
      try {
        await stream.next(() => false, 200);
      } catch (err) {
        if (/stream ended|terminated|aborted|network/i.test(String(err))) return Date.now() - started;
        if (Date.now() - started > ms) throw new Error(`the stream is still open after ${ms} ms`);
      }
    }
  };

  it('end within a second of a pause', async () => {
    const token = await tokenWith(s, ['tokens_full']);
    const id = (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id;
    const stream = await open(token);
    await s.rest('PUT', `/token/${id}/settings`, { body: { status: 'pause' } });
    expect(await ended(stream, 1000)).toBeLessThan(1000);
  });

  it('end within a second of a deletion', async () => {
    const token = await tokenWith(s, ['tokens_full']);
    const id = (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id;
    const stream = await open(token);
    await s.rest('DELETE', `/token/${id}`);
    expect(await ended(stream, 1000)).toBeLessThan(1000);
  });

  it('end when the token changes behind the API\'s back (scopes changed in the database), by the sweep', async () => {
    const token = await tokenWith(s, ['tokens_full', 'email_full']);
    const id = (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id;
    const stream = await open(token);
    await db.query(`update api_tokens set scopes = '{tokens_full}' where id = $1`, [id]);
    // No notice was sent: the sweep (every 5 s) finds it.
    expect(await ended(stream, 8000)).toBeLessThan(8000);
  });

  it('stay open for a rename', async () => {
    const token = await tokenWith(s, ['tokens_full']);
    const id = (await s.gql('{ whoami { token_id } }', {}, token)).body.data.whoami.token_id;
    const stream = await open(token);
    await s.rest('PUT', `/token/${id}`, { body: { name: 'new name' } });
    const heard = await stream.next((e) => e.data?.token_events?.token?.name === 'new name');
    expect(heard.data.token_events.action).toBe('updated');
    stream.close();
  });
});
