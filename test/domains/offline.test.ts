import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { DOMAIN_REQUIRE_DNS: 'false' } });
});
afterAll(async () => {
  await s?.close();
});

it('DOMAIN_REQUIRE_DNS=false accepts a name the resolver does not know', async () => {
  // The test DNS server answers NXDOMAIN for every name not added to its zone.
  const res = await s.rest('POST', '/domains', { body: { name: 'air-gapped.example.net' } });
  expect(res.status).toBe(201);
  expect(res.body.data.name).toBe('air-gapped.example.net');
});
