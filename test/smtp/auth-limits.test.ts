import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawSmtp } from './raw-client.js';

/**
 * SMTP AUTH checks passwords with scrypt under the app's hashing cap (PASSWORD_HASH_CONCURRENCY and
 * PASSWORD_HASH_QUEUE, shared with console logins): past it, 454 4.7.0, and the attempt is not
 * counted; a new SMTP user's password is hashed under it too (503 past it). Failed attempts are counted per client before the password is checked, so attempts
 * made at once over many sessions cannot pass the limit (20 per client in 15 minutes) together.
 */

const BUSY = '454 4.7.0 Temporary authentication failure: too many logins at once, try again shortly';

async function relayServer(env: Record<string, string>) {
  const s = await startTestServer({ roles: ['api', 'smtp'], env: { SMTP_PORT: '0', ...env } });
  const domain = await seedDomain(s);
  const res = await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'app' } });
  if (res.status !== 201) throw new Error(`smtp user: ${res.status} ${res.text}`);
  return { s, domain, user: res.body.data as { username: string; password: string } };
}

const plainAuth = (username: string, password: string) => `AUTH PLAIN ${Buffer.from(`\0${username}\0${password}`).toString('base64')}`;

/** `count` sessions from `localAddress`, each past STARTTLS and ready to log in. */
async function sessions(port: number, count: number, localAddress: string) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const c = await rawSmtp(port, { localAddress });
      await c.send('EHLO test');
      await c.startTls();
      await c.send('EHLO test');
      return c;
    }),
  );
}

/** The reply codes of one AUTH per session, all sent at once, with unknown usernames. */
async function guessesAtOnce(port: number, count: number, localAddress: string, domain: string) {
  const open = await sessions(port, count, localAddress);
  const replies = await Promise.all(open.map((c, i) => c.send(plainAuth(`MS_guess${i}@${domain}`, 'wrong'))));
  for (const c of open) c.close();
  return replies;
}

describe('the hashing cap', () => {
  let s: TestServer;
  let domain: { id: string; name: string };
  let user: { username: string; password: string };
  beforeAll(async () => {
    ({ s, domain, user } = await relayServer({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '0', SMTP_MAX_CONNECTIONS_PER_ADDRESS: '40' }));
  }, 60_000);
  afterAll(() => s?.close());

  it('answers AUTH past the cap with 454 4.7.0 and does not count it as a failure', async () => {
    // Two rounds of 15 at once: within the limit of 20 failures per client, which the 454s would
    // pass together had they been counted, locking the client out (421).
    const replies = [
      ...(await guessesAtOnce(s.app.smtpPort!, 15, '127.0.0.1', domain.name)),
      ...(await guessesAtOnce(s.app.smtpPort!, 15, '127.0.0.1', domain.name)),
    ];
    expect(replies.filter((r) => r === BUSY).length).toBeGreaterThan(10);
    expect(replies.every((r) => r === BUSY || r.startsWith('535 5.7.8 '))).toBe(true);
    const [c] = await sessions(s.app.smtpPort!, 1, '127.0.0.1');
    expect(await c.send(plainAuth(user.username, user.password))).toMatch(/^235 /);
    c.close();
  });

  it('answers a user created past the cap with 503 and Retry-After, and creates nothing for it', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: `burst ${i}` } })));
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === 201 || a.status === 503)).toBe(true);
    expect(refused[0].body).toEqual({ message: 'The service is temporarily unavailable. Please try again shortly.' });
    expect(refused[0].headers.get('retry-after')).toBe('5');
    const list = await s.rest('GET', `/domains/${domain.id}/smtp-users?limit=100`);
    // The relay server's own user, and those created.
    expect(list.body.data).toHaveLength(1 + answers.length - refused.length);
  });
});

describe('failed attempts per client', () => {
  let s: TestServer;
  let domain: { name: string };
  let user: { username: string; password: string };
  beforeAll(async () => {
    ({ s, domain, user } = await relayServer({ PASSWORD_HASH_CONCURRENCY: '64', PASSWORD_HASH_QUEUE: '100', SMTP_MAX_CONNECTIONS_PER_ADDRESS: '30' }));
  }, 60_000);
  afterAll(() => s?.close());

  it('counts attempts in flight: of 25 made at once from one client, 20 are checked and 5 refused with 421', async () => {
    const replies = await guessesAtOnce(s.app.smtpPort!, 25, '127.0.0.2', domain.name);
    expect(replies.filter((r) => r.startsWith('535 5.7.8 '))).toHaveLength(20);
    expect(replies.filter((r) => r.startsWith('421 4.7.0 Too many failed login attempts'))).toHaveLength(5);
    // The client is refused at the greeting now; another client still logs in.
    const again = await rawSmtp(s.app.smtpPort!, { localAddress: '127.0.0.2' });
    expect(again.greeting).toMatch(/^421 4\.7\.0 /);
    again.close();
    const [other] = await sessions(s.app.smtpPort!, 1, '127.0.0.3');
    expect(await other.send(plainAuth(user.username, user.password))).toMatch(/^235 /);
    other.close();
  });
});
