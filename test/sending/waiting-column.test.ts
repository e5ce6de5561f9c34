import pg from 'pg';
import { MESSAGE_STATUSES, WAITING_MESSAGE } from '../../src/modules/messages/message.status.js';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The messages' `waiting` column (a generated column, indexed by domain, migration 20261126140000)
 * is WAITING_MESSAGE in SQL: the domains' not-queued counts and the release of a paused domain
 * read it. Every status is tried on a real message, in a transaction that is rolled back.
 */
describe('the messages’ waiting column', () => {
  let s: TestServer;
  let db: pg.Client;

  beforeAll(async () => {
    s = await startTestServer({ roles: ['api'] });
    db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await s?.close();
  });

  it('is true for exactly the statuses WAITING_MESSAGE names', async () => {
    const domain = await seedDomain(s, { dkim: true });
    const sent = await s.rest('POST', '/email', {
      body: { from: { email: `a@${domain.name}` }, to: [{ email: 'reader@example.net' }], subject: 'S', text: 'T' },
    });
    expect(sent.status).toBe(202);
    const messageId = sent.headers.get('x-message-id');
    expect(messageId).toBeTruthy();
    const seen: Record<string, boolean> = {};
    await db.query('begin');
    try {
      for (const status of MESSAGE_STATUSES) {
        const { rows } = await db.query<{ waiting: boolean }>('update messages set status = $1 where id = $2 returning waiting', [status, messageId]);
        seen[status] = rows[0].waiting;
      }
    } finally {
      await db.query('rollback');
    }
    expect(seen).toEqual(Object.fromEntries(MESSAGE_STATUSES.map((st) => [st, (WAITING_MESSAGE as readonly string[]).includes(st)])));
  });
});
