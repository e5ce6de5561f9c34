import pg from 'pg';
import { getIntrospectionQuery } from 'graphql';
import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * Depth, cost, alias and token limits on both GraphQL endpoints, with the defaults
 * (GRAPHQL_MAX_DEPTH 10, GRAPHQL_MAX_COST 10000, GRAPHQL_MAX_ALIASES 15, GRAPHQL_MAX_TOKENS 1000),
 * introspection (for callers with a credential by default), and the masking of unexpected errors on every surface.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const endpoints = ['/graphql', '/graphql/stream'] as const;

async function post(endpoint: string, body: Record<string, unknown>) {
  const res = await fetch(`${s.url}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

/** A monitor's `children`, nested `levels` deep, ending in `id`. */
const children = (levels: number): string => (levels === 0 ? 'id' : `children { ${children(levels - 1)} }`);

// 14 fields of a domain and its 11 settings: with `data` and `domain_settings`, 27 per page item.
const DOMAIN_FIELDS = `id name dkim spf tracking is_verified is_cname_verified is_dns_active is_cname_active
  is_tracking_allowed has_not_queued_messages not_queued_messages_count created_at updated_at
  domain_settings { send_paused track_clicks track_opens track_unsubscribe track_content
  track_unsubscribe_html track_unsubscribe_plain custom_tracking_enabled custom_tracking_subdomain
  precedence_bulk ignore_duplicated_recipients }`;
const pages = (n: number) =>
  `query($limit: Int!) { ${Array.from({ length: n }, (_, i) => `p${i}: domains(limit: $limit) { data { ${DOMAIN_FIELDS} } }`).join(' ')} }`;

describe.each(endpoints)('limits on %s', (endpoint) => {
  it('refuses a document nested deeper than 10 before running it, and runs one 10 deep', async () => {
    // create + 9 levels of children + id = 11: refused, so no monitor is created.
    const deep = await post(endpoint, { query: `mutation { create_blocklist_monitor(address: "192.0.2.7") { ${children(9)} } }` });
    expect(deep.status).toBe(400);
    expect(deep.body.errors).toEqual([
      expect.objectContaining({ message: 'Query depth limit of 10 exceeded, found 11.', extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }) }),
    ]);
    expect(deep.body.data).toBeUndefined();
    const listed = await post(endpoint, { query: '{ blocklist_monitors { id address } }' });
    expect(listed.body.data.blocklist_monitors).toEqual([]);

    // blocklist_monitors + 8 levels of children + id = 10.
    const atLimit = await post(endpoint, { query: `{ blocklist_monitors { ${children(8)} } }` });
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors).toBeUndefined();
  });

  it('counts a list by its limit: the same document passes with limit 25 and is refused with 100', async () => {
    const small = await post(endpoint, { query: pages(5), variables: { limit: 25 } });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.p0.data).toEqual([]);

    const big = await post(endpoint, { query: pages(5), variables: { limit: 100 } });
    expect(big.status).toBe(400);
    expect(big.body.errors).toHaveLength(1);
    // Each page: 1 for `domains`, plus 27 per item times the limit (with 25, 5 × 676 = 3380 passed).
    expect(big.body.errors[0].message).toBe('Query cost limit of 10000 exceeded, found 13505.');
    expect(big.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(big.body.data).toBeUndefined();
    // Allowed costs are remembered per document and page size: 25 again passes, 100 is still refused.
    expect((await post(endpoint, { query: pages(5), variables: { limit: 25 } })).status).toBe(200);
    expect((await post(endpoint, { query: pages(5), variables: { limit: 100 } })).status).toBe(400);
  });

  it('tells a page size left to its default apart from one given as null', async () => {
    const defaulted = pages(5).replace('$limit: Int!', '$limit: Int = 25');
    // What null gets from a document seen for the first time (another text: another parsed document).
    const fresh = await post(endpoint, { query: `${defaulted} `, variables: { limit: null } });
    // Left out, the default 25 applies: allowed, and remembered.
    expect((await post(endpoint, { query: defaulted, variables: {} })).status).toBe(200);
    // null is not the default: it gets the same answer as before anything was remembered.
    const nulled = await post(endpoint, { query: defaulted, variables: { limit: null } });
    expect([nulled.status, nulled.body.errors?.[0]?.message]).toEqual([fresh.status, fresh.body.errors?.[0]?.message]);
  });

  it('refuses more than 15 aliases', async () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: whoami { account_id }`).join(' ')} }`;
    expect((await post(endpoint, { query: aliased(15) })).status).toBe(200);
    const refused = await post(endpoint, { query: aliased(16) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ message: 'Aliases limit of 15 exceeded, found 16.' })]);
  });

  it('stops parsing past 1000 tokens', async () => {
    // `whoami { account_id }` is four tokens; 251 of them with the braces are 1006.
    const refused = await post(endpoint, { query: `{ ${'whoami { account_id } '.repeat(251)}}` });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Syntax Error: Document contains more that 1000 tokens/), extensions: expect.objectContaining({ code: 'GRAPHQL_PARSE_FAILED' }) }),
    ]);
    expect((await post(endpoint, { query: `{ ${'whoami { account_id } '.repeat(240)}}` })).status).toBe(200);
  });

  it('answers introspection to a token (GRAPHQL_INTROSPECTION defaults to authenticated), whatever its depth', async () => {
    const res = await post(endpoint, { query: getIntrospectionQuery() });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('subscriptions over SSE', () => {
  it('are refused before they start', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: action`).join(' ');
    const res = await fetch(`${s.url}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ query: `subscription { token_events { ${aliases} } }` }),
    });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).toContain('Aliases limit of 15 exceeded, found 16.');
  });
});

describe('unexpected errors', () => {
  async function sql(text: string) {
    const db = new pg.Client({ connectionString: s.dbUrl });
    await db.connect();
    await db.query(text);
    await db.end();
  }

  it('answer without internals on /graphql, /graphql/stream and /v1', async () => {
    const domain = await seedDomain(s);
    // The recipients query then fails inside the resolver, as an outage would make it.
    await sql('alter table recipients rename to recipients_gone_limits');
    try {
      const query = `{ domain_recipients(domain_id: "${domain.id}") { meta { total } } }`;
      for (const endpoint of endpoints) {
        const res = await post(endpoint, { query });
        expect([endpoint, res.body.errors]).toEqual([endpoint, [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]]);
        expect(res.text).not.toMatch(/recipients|relation|select|stack|\.ts:|\.js:/i);
      }
      const rest = await s.rest('GET', `/domains/${domain.id}/recipients`);
      expect(rest.status).toBe(500);
      expect(rest.body).toEqual({ message: 'Server Error' });
    } finally {
      await sql('alter table recipients_gone_limits rename to recipients');
    }
  });
});
