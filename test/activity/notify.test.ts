import pg from 'pg';
import { seedDomain, accountIdOf } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';

/**
 * Live `activity` notices go out after commit, on the pubsub's own connection, and only while some
 * process listens to the account's topic: a send nobody watches makes no NOTIFY at all. Watched
 * here from the database (LISTEN on the pubsub channel), as another process would hear it.
 */
let s: TestServer;
let domain: { id: string; name: string };
let topic: string;
let db: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
  domain = await seedDomain(s);
  topic = `activity:${await accountIdOf(s)}`;
  db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  db.on('notification', (n) => {
    const { topic: t } = JSON.parse(n.payload ?? '{}');
    if (t === topic) heard.push(n.payload!);
  });
  await db.query('LISTEN postbox_events');
}, 60_000);
afterAll(async () => {
  await db?.end();
  await s?.close();
});

const send = (subject: string) =>
  s.rest('POST', '/email', { body: { from: { email: `n@${domain.name}` }, to: [{ email: `n${Date.now()}@example.net` }], subject, text: 'x' } });
const settle = () => new Promise((r) => setTimeout(r, 300));

it('sends no NOTIFY for activity nobody watches, and one per send while a stream watches', async () => {
  expect((await send('unwatched')).status).toBe(202);
  await settle();
  expect(heard).toEqual([]);

  const stream = await subscribe(s, `subscription { activity(domain_id: "${domain.id}") { id type email { subject } } }`, ADMIN_TOKEN);
  try {
    await stream.live(
      (n) => send(`probe ${n}`),
      (e) => (e.data?.activity ?? []).some((a: { type: string }) => a.type === 'queued'),
    );
    heard.length = 0;
    for (const subject of ['a', 'b', 'c']) expect((await send(subject)).status).toBe(202);
    await stream.next((e) => (e.data?.activity ?? []).some((a: { email: { subject: string } }) => a.email.subject === 'c'));
    expect(heard.length).toBe(3);
    expect(JSON.parse(heard[0]).detail).toMatchObject({ domain_id: domain.id, ids: [expect.any(String)] });
  } finally {
    stream.close();
  }
  // The stream's end is its process's last listener of the topic: nothing is sent for it any more.
  await settle();
  heard.length = 0;
  expect((await send('after')).status).toBe(202);
  await settle();
  expect(heard).toEqual([]);
}, 60_000);
