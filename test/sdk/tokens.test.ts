import { Token, TokenScopeType, type MailerSend } from 'mailersend';
import { createAccount, ISO, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkDomain, sdkFor, UNAUTHENTICATED, UNKNOWN_ID } from './sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
});
afterAll(async () => {
  await s?.close();
});

const TOKEN_KEYS = ['created_at', 'id', 'name', 'scopes', 'status'];

async function newToken(name = 'SDK token', scopes = [TokenScopeType.DOMAINS_READ, TokenScopeType.TOKENS_FULL]) {
  const res = await ms.token.create(new Token(name, scopes));
  return res.body.data as { id: string; accessToken: string; name: string };
}

describe('ms.token', () => {
  it('create answers 200 with a working accessToken', async () => {
    const res = await ms.token.create(new Token('Created by SDK', [TokenScopeType.DOMAINS_READ]));
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ name: 'Created by SDK', scopes: ['domains_read'], has_full: false, domain: null });
    expect(d.id).toEqual(expect.any(String));
    expect(d.accessToken).toEqual(expect.any(String));
    expect(d.created_at).toMatch(PLAIN);

    const withIt = sdkFor(s, d.accessToken);
    expect((await withIt.email.domain.list()).statusCode).toBe(200);
    // Its scopes hold: domains_read does not reach tokens.
    expect((await failure(withIt.token.list())).status).toBe(403);
  });

  it('create can limit the token to a domain', async () => {
    const domain = await sdkDomain(s, ms);
    const res = await ms.token.create(new Token('Limited', [TokenScopeType.DOMAINS_READ], domain.id));
    expect(res.body.data.domain).toMatchObject({ id: domain.id, name: domain.name });
  });

  it('list and single answer tokens in the SDK shape', async () => {
    const t = await newToken('Listed');
    const list = await ms.token.list({ page: 1, limit: 100 });
    expect(list.statusCode).toBe(200);
    const row = list.body.data.find((x: { id: string }) => x.id === t.id);
    expect(Object.keys(row).sort()).toEqual(TOKEN_KEYS);
    expect(row).toMatchObject({ name: 'Listed', status: 'unpause', scopes: ['domains_read', 'tokens_full'] });
    expect(row.created_at).toMatch(ISO);

    const one = await ms.token.single(t.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(row);
  });

  it('update renames', async () => {
    const t = await newToken('Before');
    const res = await ms.token.update(t.id, { name: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: t.id, name: 'After', status: 'unpause' });
    expect((await ms.token.single(t.id)).body.data.name).toBe('After');
  });

  it('updateSettings pauses (its calls then fail 401) and unpauses', async () => {
    const t = await newToken('Pausable');
    const withIt = sdkFor(s, t.accessToken);
    expect((await withIt.token.list()).statusCode).toBe(200);

    const paused = await ms.token.updateSettings(t.id, { status: 'pause' });
    expect(paused.statusCode).toBe(200);
    expect(paused.body.data).toMatchObject({ id: t.id, status: 'pause' });
    expect(await failure(withIt.token.list())).toEqual({ status: 401, body: UNAUTHENTICATED });
    expect(await failure(withIt.email.domain.list())).toEqual({ status: 401, body: UNAUTHENTICATED });

    const unpaused = await ms.token.updateSettings(t.id, { status: 'unpause' });
    expect(unpaused.body.data.status).toBe('unpause');
    expect((await withIt.token.list()).statusCode).toBe(200);
  });

  it('update with status pauses too', async () => {
    const t = await newToken('Via update');
    const res = await ms.token.update(t.id, { status: 'pause' });
    expect(res.body.data.status).toBe('pause');
    expect((await failure(sdkFor(s, t.accessToken).token.list())).status).toBe(401);
  });

  it('delete answers 204; the token is gone and stops working', async () => {
    const t = await newToken('Doomed');
    const res = await ms.token.delete(t.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(ms.token.single(t.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await failure(sdkFor(s, t.accessToken).token.list())).status).toBe(401);
  });

  it('an unknown token gets 401 through the SDK error', async () => {
    const stranger = sdkFor(s, 'mlsn.0000000000000000000000000000000000000000000000000000000000000000');
    expect(await failure(stranger.token.list())).toEqual({ status: 401, body: UNAUTHENTICATED });
  });

  it('404 for an unknown id on every call', async () => {
    for (const call of [
      () => ms.token.single(UNKNOWN_ID),
      () => ms.token.update(UNKNOWN_ID, { name: 'x' }),
      () => ms.token.updateSettings(UNKNOWN_ID, { status: 'pause' }),
      () => ms.token.delete(UNKNOWN_ID),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const long = await failure(ms.token.create(new Token('x'.repeat(51), [TokenScopeType.EMAIL_FULL])));
    expect(long).toEqual({
      status: 422,
      body: { message: INVALID, errors: { name: ['The name may not be greater than 50 characters.'] } },
    });
    const scope = await failure(ms.token.create(new Token('n', ['root' as TokenScopeType])));
    expect(scope.status).toBe(422);
    expect(scope.body.errors).toEqual({ 'scopes.0': ['The selected scopes.0 is invalid.'] });

    const t = await newToken('Valid');
    const status = await failure(ms.token.updateSettings(t.id, { status: 'sleep' as 'pause' }));
    expect(status.status).toBe(422);
    expect(Object.keys(status.body.errors)).toEqual(['status']);
  });

  it('another account sees none of these tokens', async () => {
    const t = await newToken('Mine');
    expect(await failure(other.token.single(t.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.token.update(t.id, { name: 'theirs' }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.token.updateSettings(t.id, { status: 'pause' }))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.token.delete(t.id))).toEqual({ status: 404, body: NOT_FOUND });
    const theirs = await other.token.list({ limit: 100 });
    expect(theirs.body.data.map((x: { id: string }) => x.id)).not.toContain(t.id);
    expect((await ms.token.single(t.id)).body.data.name).toBe('Mine');
  });
});
