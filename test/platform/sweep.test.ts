import { readFileSync } from 'node:fs';
import { hostileCases, type OpenApiDoc } from '../support/hostile.js';
import { bodyLimitOf, DataWatch, emptyReport, sweepOperation, type SweepReport } from '../support/sweep-check.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

/**
 * The bounded bad-input sweep over every /v1 operation of schema/openapi.json (the full run is
 * `npm run bench:sweep`): wrong types, missing and extra fields, unicode, huge and over-limit
 * bodies, broken JSON, wrong content types, hostile query strings and path ids. Expectations:
 * never a 5xx, every error in the documented shape, and a refused request changes no stored data.
 */
const doc = JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8')) as OpenApiDoc;
const MB = 1024 * 1024;
// Small body limits keep the over-limit cases cheap; the limits themselves are tested in body-limits.test.ts.
const LIMITS = { MAX_BODY_BYTES: 2 * MB, DEFAULT_BODY_BYTES: MB };
const BUDGET = Number(process.env.SWEEP_BUDGET ?? 24);

let s: TestServer;
let watch: DataWatch;
let byOperation: Map<string, ReturnType<typeof hostileCases>[number]['cases']>;
beforeAll(async () => {
  // No worker: a request the sweep gets accepted (a bulk send) must not change data in the background.
  s = await startTestServer({ roles: ['api'], env: { MAX_BODY_BYTES: String(LIMITS.MAX_BODY_BYTES), DEFAULT_BODY_BYTES: String(LIMITS.DEFAULT_BODY_BYTES) } });
  const domain = await seedDomain(s);
  // Ids are known only once the server runs; the sample is the same for a seed either way.
  const ids = { domain_id: domain.id };
  byOperation = new Map(hostileCases(doc, { budget: BUDGET, seed: 7, bodyLimit: bodyLimitOf(LIMITS), ids }).map((o) => [o.operation, o.cases]));
  watch = new DataWatch(s.dbUrl);
  await watch.start();
});
afterAll(async () => {
  await watch?.close();
  await s?.close();
});

const operations = hostileCases(doc, { budget: BUDGET, seed: 7, bodyLimit: bodyLimitOf(LIMITS), ids: {} }).map((o) => o.operation);

describe('bad-input sweep over /v1', () => {
  it.each(operations)('%s', async (operation) => {
    const cases = byOperation.get(operation)!;
    const report: SweepReport = emptyReport();
    await sweepOperation(s.url, ADMIN_TOKEN, watch, cases, report);
    expect(report.sent).toBeGreaterThan(0);
    expect({ serverErrors: report.serverErrors, shapeViolations: report.shapeViolations, dataChanges: report.dataChanges }).toEqual({
      serverErrors: [],
      shapeViolations: [],
      dataChanges: [],
    });
  });
});

describe('NUL characters', () => {
  it('are a 422 on GraphQL too, naming the field', async () => {
    const res = await s.gql('mutation($n: String!) { create_token(name: $n, scopes: ["email_full"]) { id } }', { n: 'a\u0000b' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.errors).toEqual({ name: ['The name contains an invalid character.'] });
  });
});
