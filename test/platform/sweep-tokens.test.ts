import { readFileSync } from 'node:fs';
import { hostileCases, type OpenApiDoc } from '../support/hostile.js';
import { bodyLimitOf, DataWatch, emptyReport, sweepOperation, type SweepReport } from '../support/sweep-check.js';
import { startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';
import { SCOPES } from '../../src/core/scopes.js';

/**
 * The bad-input sweep of sweep.test.ts, sent by the two callers whose paths differ most from the
 * admin token's: a token with every scope but limited to one domain (its own domain's ids are the
 * real ones, so validation runs past the lookups), and a token with a single scope (most
 * operations answer 403 before reading their arguments). Same expectations: never a 5xx, every
 * error in the documented shape, and no stored data changed by a refused request.
 */
const doc = JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8')) as OpenApiDoc;
const MB = 1024 * 1024;
const LIMITS = { MAX_BODY_BYTES: 2 * MB, DEFAULT_BODY_BYTES: MB };
const BUDGET = { limited: Number(process.env.SWEEP_BUDGET ?? 8), minimal: 4 };

let s: TestServer;
let watch: DataWatch;
const tokens: Record<keyof typeof BUDGET, string> = { limited: '', minimal: '' };
let cases: Record<keyof typeof BUDGET, Map<string, ReturnType<typeof hostileCases>[number]['cases']>>;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'], env: { MAX_BODY_BYTES: String(LIMITS.MAX_BODY_BYTES), DEFAULT_BODY_BYTES: String(LIMITS.DEFAULT_BODY_BYTES) } });
  const own = await seedDomain(s);
  await seedDomain(s);
  tokens.limited = await tokenWith(s, SCOPES.filter((x) => x.endsWith('_full')), own.id);
  tokens.minimal = await tokenWith(s, ['email_full']);
  const build = (budget: number, seed: number) =>
    new Map(hostileCases(doc, { budget, seed, bodyLimit: bodyLimitOf(LIMITS), ids: { domain_id: own.id } }).map((o) => [o.operation, o.cases]));
  cases = { limited: build(BUDGET.limited, 11), minimal: build(BUDGET.minimal, 13) };
  watch = new DataWatch(s.dbUrl);
  await watch.start();
});
afterAll(async () => {
  await watch?.close();
  await s?.close();
});

const operations = hostileCases(doc, { budget: 1, seed: 11, bodyLimit: bodyLimitOf(LIMITS), ids: {} }).map((o) => o.operation);

describe.each(['limited', 'minimal'] as const)('bad-input sweep over /v1 with a %s token', (who) => {
  it.each(operations)('%s', async (operation) => {
    const report: SweepReport = emptyReport();
    await sweepOperation(s.url, tokens[who], watch, cases[who].get(operation)!, report);
    expect(report.sent).toBeGreaterThan(0);
    expect({ serverErrors: report.serverErrors, shapeViolations: report.shapeViolations, dataChanges: report.dataChanges }).toEqual({
      serverErrors: [],
      shapeViolations: [],
      dataChanges: [],
    });
  });
});
