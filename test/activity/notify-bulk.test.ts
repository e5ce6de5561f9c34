import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';

/**
 * A bulk send's messages are accepted inside the job's transaction (one per item): their live
 * `activity` notices go out when that transaction commits (lib/pubsub.ts afterCommit).
 */
let s: TestServer;
let domain: { id: string; name: string };

beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(() => s?.close());

type Entry = { type: string; email: { subject: string } };
const items = (e: any) => (e.data?.activity ?? []) as Entry[];

it('streams the activity of messages a bulk send accepts in its transactions', async () => {
  const stream = await subscribe(s, `subscription { activity(domain_id: "${domain.id}") { id type email { subject } } }`, ADMIN_TOKEN);
  const send = (subject: string) =>
    s.rest('POST', '/email', { body: { from: { email: `b@${domain.name}` }, to: [{ email: `b${Date.now()}@example.net` }], subject, text: 'x' } });
  try {
    await stream.live((n) => send(`probe ${n}`), (e) => items(e).some((a) => a.type === 'queued'));
    const one = (subject: string) => ({ from: { email: `b@${domain.name}` }, to: [{ email: `${subject}@example.net` }], subject, text: 'b' });
    const res = await s.rest('POST', '/bulk-email', { body: [one('bulk-one'), one('bulk-two')] });
    expect(res.status).toBe(202);
    for (const subject of ['bulk-one', 'bulk-two']) {
      await stream.next((e) => items(e).some((a) => a.type === 'queued' && a.email.subject === subject), 20_000);
    }
  } finally {
    stream.close();
  }
}, 60_000);
