import { BlocklistMonitor, type MailerSend } from 'mailersend';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from '../sdk/sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
beforeAll(async () => {
  s = await startTestServer({ env: { BLOCKLIST_IP_ZONES: 'zen.sdk-bl.test' } });
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
});
afterAll(async () => {
  await s?.close();
});

describe('ms.blocklistMonitor', () => {
  it('create, list, single, update and delete', async () => {
    const created = await ms.blocklistMonitor.create(
      new BlocklistMonitor('192.0.2.0/30').setName('SDK range').setNotify(true).setNotifyEmail('ops@example.test'),
    );
    expect(created.statusCode).toBe(201);
    const d = created.body.data;
    expect(d).toMatchObject({ name: 'SDK range', address: '192.0.2.0', has_children: true, children_count: 4, notify: true });
    expect(d.created_at).toMatch(ISO);

    const list = await ms.blocklistMonitor.list({ query: 'SDK', sort_by: 'name', order: 'asc', limit: 5, page: 1 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data.map((m: any) => m.id)).toEqual([d.id]);

    const single = await ms.blocklistMonitor.single(d.id);
    expect(single.body.data.children).toHaveLength(4);

    const updated = await ms.blocklistMonitor.update(d.id, { name: 'Renamed', notify: false });
    expect(updated.statusCode).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Renamed', notify: false });

    expect(await failure(other.blocklistMonitor.single(d.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await ms.blocklistMonitor.delete(d.id)).statusCode).toBe(204);
    expect(await failure(ms.blocklistMonitor.single(d.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('422 and 404 come back as the SDK reports them', async () => {
    const bad = await failure(ms.blocklistMonitor.create(new BlocklistMonitor('10.0.0.0/16')));
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(INVALID);
    expect(Object.keys(bad.body.errors)).toEqual(['address']);
    expect((await failure(ms.blocklistMonitor.update(UNKNOWN_ID, { name: 'x' }))).status).toBe(404);
  });
});
