import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { METRICS_TOKEN, OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';

let s: TestServer;
beforeAll(async () => {
  // No ADMIN_TOKEN: the first start generates the secret and keeps it in DATA_DIR.
  s = await startTestServer({ env: { ADMIN_TOKEN: '' } });
});
afterAll(async () => {
  await s?.close();
});

describe('first start', () => {
  it('creates one account and a full-scope token saved to DATA_DIR/admin-token (0600)', async () => {
    const file = path.join(s.dataDir, 'admin-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret).toMatch(/^mlsn\.[0-9a-f]{64}$/);
    const res = await s.rest('GET', '/token', { token: secret });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].scopes).toHaveLength(30);
    const accounts = await s.gql('{ operator_accounts { id } }', {}, OPERATOR_TOKEN);
    expect(accounts.body.data.operator_accounts).toHaveLength(1);
  });
});

describe('plain routes', () => {
  it('/health checks the database', async () => {
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('/metrics speaks Prometheus, with request timings', async () => {
    await fetch(`${s.url}/health`);
    const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} \d+/);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('/metrics labels /v1 requests by their route template, not by the wildcard', async () => {
    const secret = readFileSync(path.join(s.dataDir, 'admin-token'), 'utf8').trim();
    expect((await s.rest('GET', '/token', { token: secret })).status).toBe(200);
    expect((await s.rest('GET', '/domains/no-such-domain', { token: secret })).status).toBe(404);
    expect((await s.rest('GET', '/no-such-resource', { token: secret })).status).toBe(404);
    const text = await scrapeMetrics(s);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/token",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/domains\/\{domain_id\}",status="404"\} \d+/);
    // A path no route matches stays under the wildcard: labels stay bounded whatever is asked.
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/\*",status="404"\} 1\b/);
  });

  it('/v1/openapi.json is the committed document', async () => {
    const res = await fetch(`${s.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const served = await res.json();
    expect(served).toEqual(JSON.parse(readFileSync('schema/openapi.json', 'utf8')));
  });

  it('every answer carries a request id, taken from the caller when it is sane', async () => {
    const given = await fetch(`${s.url}/health`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${s.url}/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('unknown /v1 routes answer 404 in the documented shape', async () => {
    const res = await s.rest('GET', '/nothing-here', { token: null });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
    const wrongMethod = await s.rest('PATCH', '/token');
    expect(wrongMethod.status).toBe(404);
  });

  it('sofa\'s built-in subscription routes are not served', async () => {
    const res = await s.rest('POST', '/webhook', { body: { subscription: 'subscription { token_events { action } }', url: 'http://127.0.0.1:1/' } });
    expect(res.status).toBe(404);
  });
});

describe('bad input never yields a 500', () => {
  it.each([
    ['a JSON array body', '[1,2]', 400],
    ['a JSON string body', '"x"', 400],
    ['broken JSON', '{"name": ', 400],
    ['JSON with a huge number', '{"name": "x", "scopes": ["email_full"], "domain_id": 1e400}', 422],
  ])('%s', async (_label, rawBody, status) => {
    const res = await s.rest('POST', '/token', { rawBody, token: readFileSync(path.join(s.dataDir, 'admin-token'), 'utf8').trim() });
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe('string');
  });

  it('a GraphQL syntax error is a 400 with the error, not a 500', async () => {
    const res = await s.gql('query { tokens { id ', {}, readFileSync(path.join(s.dataDir, 'admin-token'), 'utf8').trim());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('an unsupported content type is a 4xx in the documented shape', async () => {
    const res = await fetch(`${s.url}/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml', authorization: `Bearer ${readFileSync(path.join(s.dataDir, 'admin-token'), 'utf8').trim()}` },
      body: '<x/>',
    });
    expect(res.status).toBe(415);
    expect(Object.keys(await res.json())).toEqual(['message']);
  });
});
