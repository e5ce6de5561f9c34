import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { deliveriesOf, driveUntil, insertEvent } from './engine-support.js';

/**
 * Deliveries reuse kept-alive connections to their receiver, at most
 * WEBHOOK_CONNECTIONS_PER_ORIGIN of them, instead of a new connection per request.
 */
let s: TestServer;
let server: http.Server;
let url: string;
let connections = 0;
let requests = 0;
let open = 0;
let mostOpen = 0;

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONNECTIONS_PER_ORIGIN: '2' } });
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      // A little latency, so requests overlap and more than one connection is wanted.
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), 20);
    });
  });
  // Longer than the engine's run: a connection is only closed if the client closes it.
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket) => {
    connections++;
    open++;
    mostOpen = Math.max(mostOpen, open);
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await s?.close();
});

it('sends 30 deliveries over at most 2 kept-alive connections', async () => {
  const domain = await seedDomain(s);
  const created = await s.rest('POST', '/webhooks', {
    body: { url, name: 'keep-alive', events: ['activity.opened'], domain_id: domain.id, enabled: true },
  });
  expect(created.status).toBe(201);
  const webhookId = created.body.data.id;
  const accountId = await accountIdOf(s);
  for (let i = 0; i < 30; i++) {
    await insertEvent(s, { account_id: accountId, domain_id: domain.id, type: 'activity.opened', payload: { n: i } });
  }
  await driveUntil(s, async () => {
    const rows = await deliveriesOf(s, webhookId);
    return rows.length === 30 && rows.every((d) => d.state === 'delivered');
  });
  // The test request of the create, then the 30 deliveries.
  expect(requests).toBe(31);
  expect(mostOpen).toBeLessThanOrEqual(2);
  expect(connections).toBeLessThanOrEqual(2);
});
