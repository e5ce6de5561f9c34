import pg from 'pg';
import { accountIdOf } from '../support/factories.js';
import { OPERATOR_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { startProbeSink } from './probe-sink.js';

export type ProbeSink = Awaited<ReturnType<typeof startProbeSink>>;

/**
 * The check budget of the test server: short, so stalled probes end quickly, yet enough for a
 * real probe on a machine busy with other test files (1 s was not, under a loaded CI run).
 */
export const CHECK_BUDGET_MS = 2500;

/** A test server whose verification probes reach the local sink, with a CHECK_BUDGET_MS budget. */
export async function startVerificationServer(env: Record<string, string> = {}): Promise<{ s: TestServer; sink: ProbeSink }> {
  const sink = await startProbeSink();
  const s = await startTestServer({
    env: {
      VERIFY_SMTP_PORT: String(sink.port),
      VERIFY_TIMEOUT_MS: String(CHECK_BUDGET_MS),
      VERIFY_HELO_NAME: 'probe.postbox.test',
      VERIFY_MAIL_FROM: 'verify@postbox.test',
      VERIFY_HOST_PER_MINUTE: '1000',
      ...env,
    },
  });
  return { s, sink };
}

/** A mail domain whose MX is the local sink (127.0.0.1 through the test DNS). */
export function mailDomain(s: TestServer, domain: string, opts: { mx?: boolean; address?: string } = {}): void {
  if (opts.mx === false) {
    s.dns.add(domain, { type: 'A', address: opts.address ?? '127.0.0.1' });
    return;
  }
  // A less preferred MX where nothing listens (127.0.0.2): probing it instead would give `failed`.
  s.dns.add(domain, { type: 'MX', exchange: `backup.${domain}`, priority: 20 });
  s.dns.add(`backup.${domain}`, { type: 'A', address: '127.0.0.2' });
  s.dns.add(domain, { type: 'MX', exchange: `mx.${domain}`, priority: 5 });
  s.dns.add(`mx.${domain}`, { type: 'A', address: opts.address ?? '127.0.0.1' });
}

export async function addCredits(s: TestServer, credits: number, token?: string): Promise<void> {
  const res = await s.gql(
    'mutation($id: ID!, $c: Int!) { operator_add_verification_credits(account_id: $id, credits: $c) { verification_credits } }',
    { id: await accountIdOf(s, token), c: credits },
    OPERATOR_TOKEN,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
}

export async function sql<T = any>(s: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}

export async function credits(s: TestServer, token?: string): Promise<number> {
  const [row] = await sql<{ verification_credits: number }>(s, 'select verification_credits from accounts where id = $1', [await accountIdOf(s, token)]);
  return row.verification_credits;
}
