import { recordActivities, type NewActivity } from '../../src/modules/activity/activity.record.js';
import { OPERATOR_TOKEN, type TestServer } from '../support/server.js';

export interface SendOpts {
  to?: string[];
  subject?: string;
  tags?: string[];
  send_at?: number;
  token?: string;
  text?: string;
  html?: string;
}

let n = 0;
export const address = (prefix = 'person') => `${prefix}${++n}-${Date.now() % 100000}@example.org`;

/** Sends through POST /v1/email and answers the x-message-id. */
export async function send(s: TestServer, domain: { name: string }, o: SendOpts = {}): Promise<string> {
  const res = await s.rest('POST', '/email', {
    token: o.token,
    body: {
      from: { email: `sender@${domain.name}`, name: 'Sender' },
      to: (o.to ?? [address()]).map((email) => ({ email, name: 'Someone' })),
      subject: o.subject ?? 'Hello there',
      text: o.text ?? 'Plain body',
      html: o.html ?? '<p>HTML body</p>',
      ...(o.tags ? { tags: o.tags } : {}),
      ...(o.send_at ? { send_at: o.send_at } : {}),
    },
  });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${res.text}`);
  return res.headers.get('x-message-id')!;
}

/** Polls until `check` returns something truthy, for at most `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The emails of a message, once each reached `status`. */
export async function emailsOf(s: TestServer, messageId: string, status = 'delivered', token?: string): Promise<any[]> {
  return waitFor(`emails of ${messageId} to be ${status}`, async () => {
    const res = await s.rest('GET', `/emails?message_id=${messageId}`, { token });
    const rows = res.body.data as any[];
    return rows?.length && rows.every((e) => e.status === status) ? rows : null;
  });
}

/** Runs SQL against the test server's database (plan changes, checks). */
export async function sql<T = any>(s: TestServer, query: string, params: unknown[] = []): Promise<T[]> {
  return s.app.services.orm.em.fork().execute(query, params) as Promise<T[]>;
}

/** The reference recordActivities needs, read from a stored email; `tags` can be overridden. */
export async function emailRef(s: TestServer, emailId: string, tags?: string[]) {
  const [e] = await sql(
    s,
    'select e.id, e.account_id, e.domain_id, e.message_id, e.subject, e.to_email, e.tags, (select m.purge_after::text from messages m where m.id = e.message_id) as purge_after from emails e where e.id = ?',
    [emailId],
  );
  return { ...e, tags: tags ?? e.tags };
}

/** Records activity the way the service does, at chosen moments. */
export async function record(s: TestServer, items: NewActivity[]): Promise<string[]> {
  const em = s.app.services.orm.em.fork();
  return em.transactional((tx) => recordActivities(tx as never, items));
}

/** Changes an account's plan through the operator API. */
export async function setPlan(s: TestServer, accountId: string, plan: string): Promise<void> {
  const res = await s.gql('mutation($a: ID!, $p: String!) { operator_set_plan(account_id: $a, plan: $p) { plan } }', { a: accountId, p: plan }, OPERATOR_TOKEN);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
}
