import { readdirSync, readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The worker threads of the app's pools (template renders, the relay's MIME parse) end when the
 * app closes: none outlives it, idle or not. Tests start and stop apps in one process, as this one
 * does; its threads are this process's, which Linux names `WorkerThread`.
 */
function workerThreads(): number {
  let count = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'WorkerThread') count++;
    } catch {
      // The thread ended while the list was read.
    }
  }
  return count;
}

let s: TestServer;
afterAll(() => s?.close());

it('closing the app ends the threads of every pool it started', async () => {
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0' } });
  const domain = await seedDomain(s, { dkim: true });
  expect(workerThreads()).toBe(0);

  // A filter: the render runs in the render pool.
  const sent = await s.rest('POST', '/email', {
    body: { from: { email: `a@${domain.name}` }, to: [{ email: 'r@example.net' }], subject: 'x', html: '<p>{{ name | upcase }}</p>' },
  });
  expect(sent.status).toBe(202);
  // Relayed mail: the MIME parse runs in the relay's pool.
  const user = (await s.rest('POST', `/domains/${domain.id}/smtp-users`, { body: { name: 'app' } })).body.data;
  const relay = nodemailer.createTransport({
    host: '127.0.0.1',
    port: s.app.smtpPort!,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
    auth: { user: user.username, pass: user.password },
  } as SMTPTransport.Options);
  expect((await relay.sendMail({ from: `app@${domain.name}`, to: 'r@example.net', subject: 'x', text: 'y' })).response).toMatch(/^250 /);
  expect(workerThreads()).toBeGreaterThanOrEqual(2);

  await s.app.close();
  expect(workerThreads()).toBe(0);
});
