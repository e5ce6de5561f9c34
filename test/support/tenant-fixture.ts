import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { jobDefinitions as jobs } from '../../src/modules/jobs.js';
import { accountIdOf, seedDomain } from './factories.js';
import { startReceiver, type Receiver } from './receiver.js';
import { OPERATOR_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from './server.js';
import { assignNumberTo, randomE164 } from './sms.js';
import { inviteAndAccept } from '../users/helpers.js';
import { loginOk, userWith, type Session } from '../auth/helpers.js';
import { reportXml } from '../dmarc/reports-support.js';
import { until as untilTruthy } from '../sending/helpers.js';
import { SCOPES } from '../../src/core/scopes.js';

/**
 * A victim account (the test server's admin account) holding at least one of every resource
 * that has an id on some /v1 route, in a verified domain `victimDomain` or at account level (no
 * domain), and the three actors of test/platform/tenant-matrix.test.ts that must reach none of it:
 * a stranger account, a token of the victim account limited to another domain, and that same
 * token aimed at the victim's rows of no domain.
 *
 * Built through the public API with the worker running (invite mail, delivery, webhooks, bulk,
 * SMS, verification jobs), then the workers are stopped and the data left to settle, so that a
 * checksum of every table changes only when a request changes it.
 */
export interface TenantFixture {
  s: TestServer;
  receiver: Receiver;
  db: pg.Client;
  accountId: string;
  adminTokenId: string;
  victimDomain: { id: string; name: string };
  attackerDomain: { id: string; name: string };
  /** Actor 1: a second account's full-scope token, a verified domain and a template of its own. */
  stranger: { id: string; token: string; domain: { id: string; name: string }; templateId: string };
  /** Actors 2 and 3: every `_full` scope, limited to attackerDomain (of the victim account); a user and a template of that domain only. */
  limited: { token: string; id: string; userId: string; templateId: string };
  /**
   * Actors 4 and 5, console sessions aimed like the tokens: an admin user of the victim account
   * limited to attackerDomain (like actor 2), the same limited to attackerDomain and another domain of
   * the victim account (several domains, like actor 2 too), and an admin user of the stranger account (like actor 1).
   */
  sessions: { limited: Session; stranger: Session; several: Session };
  /** Parameter name → the victim's value, for rows of victimDomain. */
  inDomain: Record<string, string>;
  /** Parameter name → the victim's value, for rows of no domain (account-wide). */
  noDomain: Record<string, string>;
  /** The victim's suppression entry ids of victimDomain, by list slug, and the account-wide blocklist ones. */
  suppressions: Record<string, string>;
  wideBlocklistId: string;
  /** Everything of the victim that an actor must never be shown (value → what it is), by kind of actor. */
  secrets: { stranger: Record<string, string>; limited: Record<string, string> };
  tag: string;
}

export const NOT_FOUND = { message: 'Resource not found.' };

function must<T = any>(what: string, res: { status: number; text: string; body: any }, ...ok: number[]): T {
  if (!ok.includes(res.status)) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body as T;
}

/** Polls until `probe` returns something truthy, naming what it waited for (test/sending/helpers.ts). */
export const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> => untilTruthy(probe, ms, what);

export async function buildTenantFixture(): Promise<TenantFixture> {
  const s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', ACCOUNT_RATE_LIMIT_REQUESTS: '1000000' } });
  const receiver = await startReceiver();
  receiver.secretFor('*', s.app.services.config.WEBHOOK_TEST_SECRET);
  const db = new pg.Client({ connectionString: s.dbUrl });
  db.on('error', () => {}); // the server's shutdown ends this connection too
  await db.connect();
  try {
    return await populate(s, receiver, db);
  } catch (err) {
    await closeTenantFixture({ s, receiver, db });
    throw err;
  }
}

export async function closeTenantFixture(f: Pick<TenantFixture, 's' | 'receiver' | 'db'> | undefined) {
  await f?.db.end().catch(() => {});
  await f?.receiver.close();
  await f?.s.close();
}

async function populate(s: TestServer, receiver: Receiver, db: pg.Client): Promise<TenantFixture> {
  const tag = randomBytes(3).toString('hex');
  const accountId = await accountIdOf(s);
  const adminTokenId = (await s.gql('{ whoami { token_id } }')).body.data.whoami.token_id as string;

  const victimDomain = await seedDomain(s, { name: `victim-${tag}.example.test`, dkim: true });
  const attackerDomain = await seedDomain(s, { name: `attacker-${tag}.example.test` });
  const strangerAccount = await createAccount(s, `Stranger ${tag}`);
  const strangerDomain = await seedDomain(s, { accountId: strangerAccount.id, name: `stranger-${tag}.example.test` });
  const strangerTemplate = must('stranger template', await s.rest('POST', '/templates', {
    token: strangerAccount.token,
    body: { name: 'stranger template', html: '<p>s</p>', text: 's', domain_id: strangerDomain.id },
  }), 201).data.id as string;
  const stranger = { ...strangerAccount, domain: strangerDomain, templateId: strangerTemplate };
  const limitedToken = await tokenWith(s, SCOPES.filter((x) => x.endsWith('_full')), attackerDomain.id);
  const limitedTokenId = (await s.gql('{ whoami { token_id } }', {}, limitedToken)).body.data.whoami.token_id as string;

  const inDomain: Record<string, string> = { domain_id: victimDomain.id, address: victimDomain.name };
  const noDomain: Record<string, string> = { token_id: adminTokenId, account_id: accountId };

  // Tokens, identities, SMTP users, templates, categories.
  inDomain.token_id = must('token', await s.rest('POST', '/token', { body: { name: `victim-token-${tag}`, scopes: ['email_full'], domain_id: victimDomain.id } }), 200).data.id;
  const identity = must('identity', await s.rest('POST', '/identities', {
    body: { domain_id: victimDomain.id, email: `victim-sender-${tag}@${victimDomain.name}`, name: `Victim Sender ${tag}` },
  }), 201).data;
  inDomain.identity_id = identity.id;
  inDomain.email = identity.email;
  inDomain.smtp_user_id = must('smtp user', await s.rest('POST', `/domains/${victimDomain.id}/smtp-users`, { body: { name: `victim-smtp-${tag}` } }), 201).data.id;
  inDomain.template_id = must('template', await s.rest('POST', '/templates', {
    body: { name: `victim-tpl-${tag}`, html: '<p>victim</p>', text: 'victim', domain_id: victimDomain.id },
  }), 201).data.id;
  noDomain.template_id = must('account-wide template', await s.rest('POST', '/templates', { body: { name: `victim-wide-tpl-${tag}`, html: '<p>wide</p>', text: 'wide' } }), 201).data.id;
  // Each template has a translation, reached only through its template.
  for (const [id, name] of [[inDomain.template_id, 'tpl-de'], [noDomain.template_id, 'wide-tpl-de']]) {
    must('translation', await s.rest('POST', `/templates/${id}/translations`, { body: { language: 'de', html: `<p>victim-${name}-${tag}</p>`, text: 'de' } }), 201);
  }
  const category = await s.gql('mutation($n: String!) { create_template_category(name: $n) { id } }', { n: `victim-category-${tag}` });
  if (category.body.errors) throw new Error(JSON.stringify(category.body.errors));
  noDomain.category_id = category.body.data.create_template_category.id;

  // People: a pending invite and a user, both limited to victimDomain.
  inDomain.invite_id = must('invite', await s.rest('POST', '/users', {
    body: { email: `victim-invitee-${tag}@example.test`, role: 'manager', domains: [victimDomain.id] },
  }), 200).data.id;
  const { user } = await inviteAndAccept(s, { email: `victim-user-${tag}@example.test`, role: 'manager', domains: [victimDomain.id] });
  inDomain.user_id = user.id;
  const limitedTemplateId = must('attackerDomain template', await s.rest('POST', '/templates', {
    body: { name: `attacker-tpl-${tag}`, html: '<p>a</p>', text: 'a', domain_id: attackerDomain.id },
  }), 201).data.id as string;
  // A user of attackerDomain only: the domain-limited token may change this one.
  const limitedUserId = (await inviteAndAccept(s, { email: `attacker-user-${tag}@example.test`, role: 'manager', domains: [attackerDomain.id] })).user.id as string;
  // The session actors' people: logged in below, once nothing else is written.
  const limitedLogin = await userWith(s, { role: 'admin', domains: [attackerDomain.id] });
  const strangerLogin = await userWith(s, { role: 'admin' }, strangerAccount.token);
  const sideDomain = await seedDomain(s, { name: `side-${tag}.example.test` });
  const severalLogin = await userWith(s, { role: 'admin', domains: [attackerDomain.id, sideDomain.id] });
  // And people of every domain (no domain list): a domain-limited token may read them, never change them.
  noDomain.invite_id = must('invite of every domain', await s.rest('POST', '/users', { body: { email: `everywhere-invitee-${tag}@example.test`, role: 'manager' } }), 200).data.id;
  noDomain.user_id = (await inviteAndAccept(s, { email: `everywhere-user-${tag}@example.test`, role: 'manager' })).user.id;

  // An email webhook first, so that the sends below give it attempts.
  const hook = must('webhook', await s.rest('POST', '/webhooks', {
    body: { url: receiver.url('/victim-hook'), name: `victim-hook-${tag}`, events: ['activity.sent', 'activity.delivered'], domain_id: victimDomain.id, enabled: true },
  }), 201).data;
  inDomain.webhook_id = hook.id;
  receiver.secretFor('/victim-hook', hook.secret);

  // Sending: a delivered message, a scheduled one, a bulk send.
  const from = { email: `victim-sender-${tag}@${victimDomain.name}`, name: 'Victim' };
  const rcpt = `victim-rcpt-${tag}@example.org`;
  // Through the domain's template, so that a filter by template finds it.
  const sent = await s.rest('POST', '/email', { body: { from, to: [{ email: rcpt }], subject: `victim-subject-${tag}`, template_id: inDomain.template_id } });
  must('send', sent, 202);
  inDomain.message_id = sent.headers.get('x-message-id')!;
  const scheduled = await s.rest('POST', '/email', {
    body: { from, to: [{ email: `victim-later-${tag}@example.org` }], subject: `victim-scheduled-${tag}`, text: 'later', send_at: Math.floor(Date.now() / 1000) + 7200 },
  });
  must('scheduled send', scheduled, 202);
  inDomain.scheduled_message_id = scheduled.headers.get('x-message-id')!;
  inDomain.bulk_email_id = must('bulk', await s.rest('POST', '/bulk-email', {
    body: [{ from, to: [{ email: `victim-bulk-${tag}@example.org` }], subject: `victim-bulk-${tag}`, text: 'bulk' }],
  }), 202).bulk_email_id;
  const emails = await until('the victim email delivered', async () => {
    const res = await s.rest('GET', `/emails?message_id=${inDomain.message_id}`);
    return res.body.data?.length && res.body.data.every((e: any) => e.status === 'delivered') ? res.body.data : null;
  });
  inDomain.email_id = emails[0].id;
  inDomain.recipient_id = (await until('the victim recipient', async () => {
    const res = await s.rest('GET', `/recipients?domain_id=${victimDomain.id}&limit=100`);
    return res.body.data?.find((r: any) => r.email === rcpt);
  })).id;
  const since = Math.floor(Date.now() / 1000) - 3600;
  inDomain.activity_id = (await until('the victim activity', async () => {
    const res = await s.rest('GET', `/activity/${victimDomain.id}?date_from=${since}&date_to=${since + 7200}&limit=100`);
    return res.body.data?.[0];
  })).id;
  // A bulk send belongs to no domain (bulk_emails has none): the same id is a no-domain target.
  noDomain.bulk_email_id = inDomain.bulk_email_id;
  await until('the bulk send to complete', async () => (await s.rest('GET', `/bulk-email/${inDomain.bulk_email_id}`)).body.data?.state === 'completed');

  // Suppressions: one entry on each list of victimDomain, and an account-wide blocklist entry.
  const suppressions: Record<string, string> = {};
  for (const slug of ['blocklist', 'hard-bounces', 'spam-complaints', 'unsubscribes', 'on-hold-list']) {
    suppressions[slug] = must(slug, await s.rest('POST', `/suppressions/${slug}`, {
      body: { domain_id: victimDomain.id, recipients: [`victim-${slug}-${tag}@example.org`] },
    }), 201).data[0].id;
  }
  const wideBlocklistId = must('account-wide blocklist', await s.rest('POST', '/suppressions/blocklist', {
    body: { recipients: [`victim-wide-block-${tag}@example.org`] },
  }), 201).data[0].id as string;

  // Inbound route, monitors.
  inDomain.inbound_id = must('inbound', await s.rest('POST', '/inbound', {
    body: { domain_id: victimDomain.id, name: `victim-inbound-${tag}`, domain_enabled: false, forwards: [{ type: 'webhook', value: receiver.url('/victim-inbound') }] },
  }), 201).data.id;
  inDomain.blocklist_monitor_id = must('blocklist monitor', await s.rest('POST', '/blocklist-monitoring', {
    body: { address: victimDomain.name, name: `victim-blmon-${tag}` },
  }), 201).data.id;
  noDomain.address = '203.0.113.77';
  noDomain.blocklist_monitor_id = must('IP monitor', await s.rest('POST', '/blocklist-monitoring', {
    body: { address: noDomain.address, name: `victim-ipmon-${tag}` },
  }), 201).data.id;
  inDomain.dmarc_monitor_id = must('dmarc monitor', await s.rest('POST', '/dmarc-monitoring', { body: { domain_id: victimDomain.id } }), 201).data.id;
  must('dmarc report', await s.rest('POST', `/dmarc-monitoring/${inDomain.dmarc_monitor_id}/reports`, {
    body: { report: reportXml('google', victimDomain.name) },
  }), 201);
  inDomain.ip = '192.0.2.10';

  // Email verification (account-level): credits, an async check and a list.
  const credited = await s.gql(
    'mutation($id: ID!, $c: Int!) { operator_add_verification_credits(account_id: $id, credits: $c) { verification_credits } }',
    { id: accountId, c: 20 },
    OPERATOR_TOKEN,
  );
  if (credited.body.errors) throw new Error(JSON.stringify(credited.body.errors));
  noDomain.async_verification_id = must('verify-async', await s.rest('POST', '/email-verification/verify-async', {
    body: { email: `victim-verify-${tag}@example.org` },
  }), 200).id;
  noDomain.verification_list_id = must('verification list', await s.rest('POST', '/email-verification', {
    body: { name: `victim-vlist-${tag}`, emails: [`victim-listed-${tag}@example.org`] },
  }), 200, 201).data.id;

  // SMS (account-level): a number, a webhook, an inbound route, a sent text and its recipient.
  const number = await assignNumberTo(s, accountId);
  noDomain.sms_number_id = number.id;
  noDomain.telephone_number = number.telephone_number;
  const smsHook = must('sms webhook', await s.rest('POST', '/sms-webhooks', {
    body: { url: receiver.url('/victim-sms-hook'), name: `victim-smshook-${tag}`, events: ['sms.sent'], sms_number_id: number.id, enabled: true },
  }), 201).data;
  noDomain.sms_webhook_id = smsHook.id;
  receiver.secretFor('/victim-sms-hook', smsHook.secret);
  noDomain.sms_inbound_id = must('sms inbound', await s.rest('POST', '/sms-inbounds', {
    body: { sms_number_id: number.id, name: `victim-smsin-${tag}`, forward_url: `https://hooks.example.com/victim-${tag}` },
  }), 201).data.id;
  const to = randomE164();
  const sms = await s.rest('POST', '/sms', { body: { from: number.telephone_number, to: [to], text: `victim-sms-${tag}` } });
  must('send sms', sms, 202);
  noDomain.sms_message_id = sms.headers.get('x-sms-message-id')!;
  noDomain.sms_recipient_id = (await until('the victim SMS recipient', async () => {
    const res = await s.rest('GET', '/sms-recipients?limit=100');
    return res.body.data?.find((r: any) => r.number === to);
  })).id;
  noDomain.sms_phone = to;

  // Let the jobs finish what the fixture started, then stop the workers: from here on only
  // requests change data (the webhook engine is driven by hand where a test needs it).
  await until('email webhook attempts', async () => (await db.query('select 1 from webhook_attempts where webhook_id = $1', [hook.id])).rowCount! > 0);
  await until('sms webhook attempts', async () => (await db.query('select 1 from webhook_attempts where webhook_id = $1', [smsHook.id])).rowCount! > 0);
  // A delivery of the email webhook, for the operations that take one by id.
  // The service's own mail kept by the capture transport: the identity's confirmation (of the
  // victim domain) and an invitation of every domain, for the operations that take one by id.
  const capturedTo = (to: string) => until(`the mail to ${to}`, async () => (await db.query('select id from captured_mails where "to" = $1 and account_id is not null', [to])).rows[0]);
  inDomain.mail_id = (await capturedTo(identity.email)).id;
  noDomain.mail_id = (await capturedTo(`everywhere-invitee-${tag}@example.test`)).id;
  inDomain.delivery_id = (await until('an email webhook delivery', async () => (await db.query('select id from webhook_deliveries where webhook_id = $1 limit 1', [hook.id])).rows[0])).id;
  await until('the async verification', async () => (await s.rest('GET', `/email-verification/verify-async/${noDomain.async_verification_id}`)).body.status !== 'queued');
  await until('the blocklist checks', async () => (await db.query('select 1 from blocklist_monitors where in_progress')).rowCount === 0);
  for (const job of jobs) await s.app.services.boss.offWork(job.name);
  const sessions = {
    limited: await loginOk(s, limitedLogin.email, limitedLogin.password),
    stranger: await loginOk(s, strangerLogin.email, strangerLogin.password),
    several: await loginOk(s, severalLogin.email, severalLogin.password),
  };

  // What each actor must never be shown, each value with a label that says what it is.
  const audit = await db.query<{ id: string; domain_id: string | null; action: string }>('select id, domain_id, action from audit_events where account_id = $1', [accountId]);
  const limitedSecrets: Record<string, string> = {};
  const add = (to: Record<string, string>, value: string | undefined, label: string) => {
    if (value) to[value] = label;
  };
  for (const [k, v] of Object.entries(inDomain)) if (!['address', 'ip'].includes(k)) add(limitedSecrets, v, `victimDomain ${k}`);
  for (const [k, v] of Object.entries(noDomain)) if (!['address', 'account_id', 'invite_id', 'user_id'].includes(k)) add(limitedSecrets, v, `no-domain ${k}`);
  for (const [k, v] of Object.entries(suppressions)) add(limitedSecrets, v, `victimDomain ${k} entry id`);
  add(limitedSecrets, wideBlocklistId, 'account-wide blocklist entry id');
  add(limitedSecrets, victimDomain.name, 'victimDomain name');
  for (const r of audit.rows) if (r.domain_id !== attackerDomain.id) add(limitedSecrets, r.id, `audit event ${r.action} of ${r.domain_id ? 'victimDomain' : 'no domain'}`);
  for (const name of [
    'token', 'smtp', 'tpl', 'wide-tpl', 'tpl-de', 'wide-tpl-de', 'category', 'invitee', 'user', 'hook', 'rcpt', 'subject', 'later', 'scheduled', 'bulk', 'wide-block',
    'inbound', 'blmon', 'ipmon', 'verify', 'vlist', 'listed', 'smshook', 'smsin', 'sms', 'blocklist', 'hard-bounces', 'spam-complaints',
    'unsubscribes', 'on-hold-list',
  ]) add(limitedSecrets, `victim-${name}-${tag}`, `name victim-${name}`);
  add(limitedSecrets, `Victim Sender ${tag}`, 'identity name');
  // People of every domain are visible to a domain-limited token by rule (users/access.ts), not to a stranger.
  const strangerSecrets: Record<string, string> = { ...limitedSecrets };
  add(strangerSecrets, noDomain.invite_id, 'invite of every domain');
  add(strangerSecrets, noDomain.user_id, 'user of every domain');
  add(strangerSecrets, `everywhere-invitee-${tag}`, 'invitee of every domain');
  add(strangerSecrets, `everywhere-user-${tag}`, 'user of every domain');
  add(strangerSecrets, limitedUserId, 'user of attackerDomain');
  add(strangerSecrets, `attacker-user-${tag}`, 'user of attackerDomain');
  add(strangerSecrets, limitedLogin.id, 'session user of attackerDomain');
  add(strangerSecrets, limitedLogin.email, 'session user of attackerDomain');
  add(strangerSecrets, severalLogin.id, 'session user of attackerDomain and another');
  add(strangerSecrets, sideDomain.id, 'another domain of the victim account');
  for (const r of audit.rows) add(strangerSecrets, r.id, `audit event ${r.action}`);
  add(strangerSecrets, attackerDomain.id, 'attackerDomain id');
  add(strangerSecrets, attackerDomain.name, 'attackerDomain name');
  add(strangerSecrets, limitedTokenId, 'attackerDomain token id');
  add(strangerSecrets, accountId, 'victim account id');
  add(strangerSecrets, limitedTemplateId, 'attackerDomain template id');
  add(strangerSecrets, `attacker-tpl-${tag}`, 'attackerDomain template name');
  const limited = { token: limitedToken, id: limitedTokenId, userId: limitedUserId, templateId: limitedTemplateId };
  return {
    s, receiver, db, accountId, adminTokenId, victimDomain, attackerDomain, stranger, limited, sessions, inDomain, noDomain, suppressions, wideBlocklistId,
    secrets: { stranger: strangerSecrets, limited: limitedSecrets }, tag,
  };
}

/** Waits until `probe` answers the same three times in a row, 300 ms apart (nothing is still being written). */
export async function settle(probe: () => Promise<unknown>, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last = JSON.stringify(await probe());
  for (let stable = 0; stable < 3; ) {
    if (Date.now() > deadline) throw new Error('the data never settled');
    await new Promise((r) => setTimeout(r, 300));
    const now = JSON.stringify(await probe());
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}
