import { startTestServer, type TestServer } from '../support/server.js';
import { slowestHealthDuring } from '../support/loop-watch.js';
import { monitoredDomain, reportXml, upload } from './reports-support.js';

/**
 * A report within every size limit can still be slow to parse. Reading runs in a worker thread
 * with a hard time limit (UNTRUSTED_PARSE_TIMEOUT_MS): past it the thread is terminated and the
 * report refused, the event loop never waits on it, and the next report is read by a new thread.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { UNTRUSTED_PARSE_TIMEOUT_MS: '1000' } });
}, 60_000);
afterAll(() => s?.close());

it('ends a parse that outlives the time limit, answers 422, and reads the next report', async () => {
  const { monitor, domain } = await monitoredDomain(s);
  // Ten MB of empty elements in one record: under every size limit, and seconds of parsing.
  const slow = `<?xml version="1.0"?><feedback><record>${'<a/>'.repeat(2_500_000)}</record></feedback>`;
  const { result: res, slowestMs } = await slowestHealthDuring(s.url, upload(s, monitor.id, slow));
  expect(res.status).toBe(422);
  expect(res.body.errors.report).toEqual(['The report could not be read within the limits: The work took longer than 1000 ms and was stopped.']);
  expect(slowestMs).toBeLessThan(1000);

  const next = await upload(s, monitor.id, reportXml('google', domain.name));
  expect(next.status).toBe(201);
  expect(next.body.data.records).toBe(4);
});
