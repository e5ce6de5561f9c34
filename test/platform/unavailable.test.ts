import net from 'node:net';
import pg from 'pg';
import { isDatabaseUnavailable, retryWhileUnavailable } from '../../src/db/unavailable.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * What counts as "the database cannot be reached" (answered 503 with retry-after, see
 * bench/fault-run.ts for the end-to-end run with a real restart), told apart from errors that
 * are a request's or our code's, on errors a real PostgreSQL and a real socket raise.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
});
afterAll(async () => {
  await s?.close();
});

async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

it('a refused connection is unavailability', async () => {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  const client = new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${port}/db` });
  expect(isDatabaseUnavailable(await errorOf(() => client.connect()))).toBe(true);
});

it('a connection the server terminates (as on shutdown) is unavailability', async () => {
  const victim = new pg.Client({ connectionString: s.dbUrl });
  await victim.connect();
  victim.on('error', () => undefined);
  const pid = (await victim.query('select pg_backend_pid() as pid')).rows[0].pid;
  const killer = new pg.Client({ connectionString: s.dbUrl });
  await killer.connect();
  // pg_terminate_backend gives the victim's session 57P01, the code of a shutdown.
  const pending = errorOf(() => victim.query('select pg_sleep(5)'));
  await new Promise((r) => setTimeout(r, 200));
  await killer.query('select pg_terminate_backend($1)', [pid]);
  await killer.end();
  expect(isDatabaseUnavailable(await pending)).toBe(true);
  // The dead client refuses further queries with node-postgres's own wording.
  expect(isDatabaseUnavailable(await errorOf(() => victim.query('select 1')))).toBe(true);
});

it('errors of the request or of our SQL are not', async () => {
  const client = new pg.Client({ connectionString: s.dbUrl });
  await client.connect();
  try {
    expect(isDatabaseUnavailable(await errorOf(() => client.query('select * from no_such_table')))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(() => client.query(`select 'x'::int`)))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(() => client.query('select 1/0')))).toBe(false);
  } finally {
    await client.end();
  }
  expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  expect(isDatabaseUnavailable(undefined)).toBe(false);
});

/** A TCP proxy to PostgreSQL that the test can cut, as a network partition or a restart would. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('error', () => undefined);
      sock.on('close', () => sockets.delete(sock));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      server.close();
      for (const sock of sockets) sock.destroy();
    },
  };
}

it('the API answers 503 with retry-after and the documented shape while the database cannot be reached', async () => {
  const target = new URL(s.dbUrl);
  const proxy = await startProxy(target);
  const through = new URL(s.dbUrl);
  through.port = String(proxy.port);
  const lone = await startTestServer({ roles: ['api'], env: { DATABASE_URL: through.toString() } });
  try {
    expect((await lone.rest('GET', '/domains')).status).toBe(200);
    proxy.cut();
    const rest = await lone.rest('GET', '/domains');
    const gql = await lone.gql('{ domains { data { id } } }');
    const health = await fetch(`${lone.url}/health`);
    expect([rest.status, rest.headers.get('retry-after'), rest.body]).toEqual([
      503,
      '5',
      { message: 'The service is temporarily unavailable. Please try again shortly.' },
    ]);
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0]).toMatchObject({
      message: 'The service is temporarily unavailable. Please try again shortly.',
      extensions: { code: 'SERVICE_UNAVAILABLE' },
    });
    expect(health.status).toBe(503);
  } finally {
    await lone.close().catch(() => undefined);
  }
});

/** A client's `select 1` through `url`, as a start-up step. */
async function selectOne(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query('select 1 as one')).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

it('a start-up step waits out a database that is not there yet, then goes through', async () => {
  // A port nothing listens on until, 700 ms later, a TCP proxy to the real database opens there.
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const target = new URL(s.dbUrl);
  const proxy = net.createServer((c) => {
    const up = net.connect(Number(target.port), target.hostname);
    c.on('error', () => undefined);
    up.on('error', () => undefined);
    c.pipe(up).pipe(c);
  });
  const opening = setTimeout(() => proxy.listen(port, '127.0.0.1'), 700);
  const url = new URL(s.dbUrl);
  url.port = String(port);
  let tries = 0;
  const heard: unknown[] = [];
  try {
    const rows = await retryWhileUnavailable(10, () => (tries++, selectOne(url.toString())), (err) => heard.push(err));
    expect(rows).toEqual([{ one: 1 }]);
    expect(tries).toBeGreaterThan(1);
    expect(heard).toHaveLength(1);
    expect(isDatabaseUnavailable(heard[0])).toBe(true);
  } finally {
    clearTimeout(opening);
    await new Promise((r) => proxy.close(r));
  }
});

it('a start-up step fails at once on any other error, and once the wait is over', async () => {
  let tries = 0;
  const sqlError = await errorOf(() => retryWhileUnavailable(10, async () => {
    tries++;
    const client = new pg.Client({ connectionString: s.dbUrl });
    await client.connect();
    try {
      return await client.query('select * from no_such_table');
    } finally {
      await client.end();
    }
  }));
  expect(tries).toBe(1);
  expect(isDatabaseUnavailable(sqlError)).toBe(false);

  tries = 0;
  const refused = await errorOf(() => retryWhileUnavailable(0, () => (tries++, selectOne('postgres://x:y@127.0.0.1:9/db'))));
  expect(isDatabaseUnavailable(refused)).toBe(true);
  expect(tries).toBe(1);
});
