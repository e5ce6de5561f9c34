import { readFileSync } from 'node:fs';
import { graphqlAccepted, graphqlCases, graphqlViolation, sendGraphQL, type GraphQLCase } from '../support/hostile-graphql.js';
import { DataWatch, emptyReport, sweepBatches } from '../support/sweep-check.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

/**
 * The bounded GraphQL part of the bad-input sweep (the full run is `npm run bench:sweep`):
 * broken documents and transports, limits exceeded, and wrong variables for a sample of root
 * fields. Introspection is off here, so introspection documents are refusals too.
 */
const sdl = readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');
const cases = graphqlCases(sdl, Number(process.env.SWEEP_GRAPHQL_BUDGET ?? 300), 11);

let s: TestServer;
let watch: DataWatch;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'], env: { GRAPHQL_INTROSPECTION: 'false' } });
  await seedDomain(s);
  watch = new DataWatch(s.dbUrl);
  await watch.start();
});
afterAll(async () => {
  await watch?.close();
  await s?.close();
});

const probe = {
  send: (c: GraphQLCase) => sendGraphQL(s.url, ADMIN_TOKEN, c),
  violation: graphqlViolation,
  accepted: graphqlAccepted,
};

describe('bad-input sweep over GraphQL', () => {
  // Groups of 30 keep a failure's report readable and each test well inside the timeout.
  const groups = Array.from({ length: Math.ceil(cases.length / 30) }, (_, i) => [`cases ${i * 30 + 1}-${Math.min(cases.length, i * 30 + 30)}`, cases.slice(i * 30, i * 30 + 30)] as const);
  it.each(groups)('%s', async (_name, group) => {
    const report = emptyReport();
    await sweepBatches(group, probe, watch, report);
    expect(report.sent).toBe(group.length);
    expect({ serverErrors: report.serverErrors, shapeViolations: report.shapeViolations, dataChanges: report.dataChanges }).toEqual({
      serverErrors: [],
      shapeViolations: [],
      dataChanges: [],
    });
  });

  it('still answers a valid document afterwards', async () => {
    const res = await s.gql('{ whoami { account_id } }');
    expect(res.status).toBe(200);
    expect(res.body.data.whoami.account_id).toEqual(expect.any(String));
  });
});
