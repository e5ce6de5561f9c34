import { mkdtempSync, rmSync } from 'node:fs';
import { print, type DocumentNode } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Logger } from 'pino';
import os from 'node:os';
import path from 'node:path';
import { startApp, type RunningApp, type RoleName as Role } from '../../src/app.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startDnsServer, type TestDns } from './dns.js';

export const ADMIN_TOKEN = 'mlsn.test-admin-token-0000000000000000000000000000000000000000';
export const OPERATOR_TOKEN = 'operator-test-token-0123456789abcdef';
/** What the test server's /metrics asks for (METRICS_TOKEN); test/support/metrics.ts scrapes with it. */
export const METRICS_TOKEN = 'metrics-test-token-0123456789abcdef';

export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestServer {
  app: RunningApp;
  url: string;
  dns: TestDns;
  dbUrl: string;
  dataDir: string;
  /** /v1 call: `rest('GET', '/token', { token })`. The admin token is the default. */
  rest<T = any>(
    method: string,
    path: string,
    opts?: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<HttpAnswer<T>>;
  /** /graphql call with the admin token unless another is given; takes a string or a typed document. */
  gql<T = any, V = Record<string, unknown>>(
    query: string | TypedDocumentNode<T, V>,
    variables?: V,
    token?: string | null,
  ): Promise<HttpAnswer<{ data?: T; errors?: any }>>;
  close(): Promise<void>;
}

async function call(url: string, init: RequestInit): Promise<HttpAnswer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Runs one set-up phase; if it stalls, says which one (a hung beforeAll otherwise names nothing). */
export async function phase<T>(label: string, work: Promise<T>, warnAfterMs = 15_000): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => {
    process.stderr.write(`[test setup] still waiting for ${label} after ${Math.round((Date.now() - started) / 1000)} s\n`);
  }, warnAfterMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** Boots the whole service for one test file: its own database, a real local DNS server. */
export async function startTestServer(
  opts: {
    /** Settings over the suites' own; a function is given the test DNS server's `host:port` (DANE_RESOLVER). */
    env?: Record<string, string> | ((dnsServer: string) => Record<string, string>);
    roles?: Role[];
    log?: Logger;
    database?: TestDatabase;
  } = {},
): Promise<TestServer> {
  const db = opts.database ?? (await phase('createTestDatabase', createTestDatabase()));
  const dns = await phase('startDnsServer', startDnsServer());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-test-data-'));
  const app = await phase('startApp', startApp({
    roles: opts.roles ?? ['api', 'worker'],
    log: opts.log,
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      APP_SECRET: 'test-app-secret-0123456789abcdef0123456789',
      ADMIN_TOKEN,
      OPERATOR_TOKEN,
      METRICS_TOKEN,
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '1000',
      MX_ALLOW_PRIVATE: 'true', // MX and probe targets in tests are local SMTP servers; refusal tests set 'false'
      // Suites make many requests with one token; the rate-limit tests set low limits themselves.
      RATE_LIMIT_REQUESTS: '1000000',
      ACCOUNT_RATE_LIMIT_REQUESTS: '1000000',
      API_QUOTA_PER_DAY: '100000000',
      // The suites were written for DNS verification and the free plan; the sandbox has its own tests.
      DOMAIN_VERIFICATION: 'dns',
      DEFAULT_PLAN: 'free',
      DEFAULT_VERIFICATION_CREDITS: '0',
      ...(typeof opts.env === 'function' ? opts.env(dns.server) : opts.env),
    },
  }));
  const url = app.url!;
  const auth = (token: string | null | undefined): Record<string, string> =>
    token === null ? {} : { authorization: `Bearer ${token ?? ADMIN_TOKEN}` };

  return {
    app,
    url,
    dns,
    dbUrl: db.url,
    dataDir,
    rest(method, p, o = {}) {
      const hasBody = o.rawBody !== undefined || o.body !== undefined;
      return call(`${url}/v1${p}`, {
        method,
        headers: { ...auth(o.token), ...(hasBody ? { 'content-type': 'application/json' } : {}), ...o.headers },
        body: o.rawBody ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined),
      });
    },
    gql(query, variables, token) {
      return call(`${url}/graphql`, {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify({ query: typeof query === 'string' ? query : print(query as DocumentNode), variables: variables ?? {} }),
      });
    },
    async close() {
      await app.close();
      await dns.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The settings of another process of the same install as `s` (same database, data dir and app
 * secret; its own port), for tests that start a second app beside the test server.
 */
export function sameInstallEnv(s: TestServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: s.dbUrl,
    DATA_DIR: s.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    APP_SECRET: s.app.services.config.APP_SECRET,
    OPERATOR_TOKEN,
    ...extra,
  };
}

/** A second account with its own full-scope token, through the operator API. */
export async function createAccount(s: TestServer, name = 'Other account'): Promise<{ id: string; token: string }> {
  const res = await s.gql(
    `mutation($name: String!) { operator_create_account(name: $name) { account { id } token { accessToken } } }`,
    { name },
    OPERATOR_TOKEN,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  const out = res.body.data.operator_create_account;
  return { id: out.account.id, token: out.token.accessToken };
}

/** A token of the admin account with just these scopes (and optionally one domain). */
export async function tokenWith(s: TestServer, scopes: string[], domain_id?: string, as?: string): Promise<string> {
  const res = await s.rest('POST', '/token', { token: as, body: { name: `t-${scopes.join('-').slice(0, 40)}`, scopes, domain_id } });
  if (res.status !== 200) throw new Error(`token create failed: ${res.status} ${res.text}`);
  return res.body.data.accessToken;
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const PLAIN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
