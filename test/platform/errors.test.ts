import pg from 'pg';
import pino from 'pino';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
const lines: Record<string, any>[] = [];
beforeAll(async () => {
  const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  s = await startTestServer({ log });
});
afterAll(async () => {
  await s?.close();
});

async function sql(text: string) {
  const db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  await db.query(text);
  await db.end();
}

describe('unexpected errors', () => {
  it('are masked on both surfaces and logged with the request id', async () => {
    const domain = await seedDomain(s);
    // Break the table the recipients query reads, as a failed migration or outage would.
    await sql('alter table recipients rename to recipients_gone');

    const rest = await s.rest('GET', `/domains/${domain.id}/recipients`, { headers: { 'x-request-id': 'boom-rest-1' } });
    expect(rest.status).toBe(500);
    expect(rest.body).toEqual({ message: 'Server Error' });
    expect(rest.text).not.toMatch(/recipients|relation|select/i);

    const gql = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer mlsn.test-admin-token-0000000000000000000000000000000000000000', 'x-request-id': 'boom-gql-1' },
      body: JSON.stringify({ query: `{ domain_recipients(domain_id: "${domain.id}") { meta { total } } }` }),
    });
    const body = await gql.json();
    expect(body.errors[0].message).toBe('Internal server error');
    expect(JSON.stringify(body)).not.toMatch(/relation|select/i);

    for (const id of ['boom-rest-1', 'boom-gql-1']) {
      const entry = lines.find((l) => l.reqId === id && l.level >= 50);
      expect(entry).toBeDefined();
      expect(JSON.stringify(entry)).toMatch(/recipients/);
    }
    await sql('alter table recipients_gone rename to recipients');
  });

  it('a database failure while checking the token is a 500, not a 401', async () => {
    await sql('alter table api_tokens rename to api_tokens_gone');
    try {
      const res = await s.rest('GET', '/token');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'Server Error' });
    } finally {
      await sql('alter table api_tokens_gone rename to api_tokens');
    }
  });
});

describe('the error catalogue on /v1', () => {
  // The mapping 402 (verification credits) and 429 (rate limit, quota) go through, unit by unit;
  // test/platform/ratelimit.test.ts and the verification tests check them end to end.
  it('answers 402 and 429 in the documented shape, 429 with retry-after', async () => {
    const { errorAnswer } = await import('../../rest-mapping/adapter.js');
    const { errors } = await import('../../src/core/errors.js');
    const silent = pino({ level: 'silent' });
    expect(errorAnswer([errors.paymentRequired('You need 3 credits to verify this list.')], silent, 'r1')).toEqual({
      status: 402,
      body: { message: 'You need 3 credits to verify this list.' },
      headers: {},
    });
    expect(errorAnswer([errors.tooManyRequests('Too Many Attempts.', 17)], silent, 'r2')).toEqual({
      status: 429,
      body: { message: 'Too Many Attempts.' },
      headers: { 'retry-after': '17' },
    });
    expect(errorAnswer([errors.invalid('to.0.email', 'The to.0.email must be a valid email address.')], silent, 'r3')).toEqual({
      status: 422,
      body: { message: 'The given data was invalid.', errors: { 'to.0.email': ['The to.0.email must be a valid email address.'] } },
      headers: {},
    });
  });
});
