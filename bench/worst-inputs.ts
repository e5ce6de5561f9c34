/**
 * The worst input of each parser and renderer, sent to a service running in this process (api,
 * smtp and worker roles), one at a time, with the event loop's longest delay read around each
 * (src/lib/metrics.ts, perf_hooks.monitorEventLoopDelay). Inputs are built before their window
 * opens, so what the window sees is the service's work and the client's sending of prepared bytes.
 * bench/sweep.ts runs it and fails past LOOP_DELAY_LIMIT_MS.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { startApp, type RunningApp } from '../src/app.js';
import { eventLoopDelayPeakSeconds, resetEventLoopDelayPeak } from '../src/lib/event-loop.js';
import { seedDomain } from '../test/support/factories.js';
import type { TestServer } from '../test/support/server.js';
import { zipOfZeros, gzippedZeros } from '../test/dmarc/bombs.js';
import { inPieces } from '../test/support/loop-watch.js';
import { worstInlineRenders } from '../test/templates/inline-worst.js';
import { NO_API_LIMITS } from './limits.js';

/** The sweep fails when one input held the loop longer. */
export const LOOP_DELAY_LIMIT_MS = 200;

export interface WorstTarget {
  url: string;
  token: string;
  smtpPort: number;
  domain: { id: string; name: string };
  /** A DMARC monitor's report address, an inbound route's address, an SMTP user's login. */
  reportAddress: string;
  monitorId: string;
  inboundAddress: string;
  smtpUser: { username: string; password: string };
}

export interface WorstOutcome {
  name: string;
  /** What the service answered, in a few words. */
  answer: string;
  loopDelayMs: number;
}

interface WorstCase {
  name: string;
  /** Builds the input (outside the measured window) and answers the request to make. */
  prepare(t: WorstTarget): () => Promise<string>;
  /** Waits, inside the window, for background work the request started (delivery, a job). */
  settle?: (t: WorstTarget) => Promise<void>;
}

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * An HTTP request as the admin token (`anonymous`: none); answers its status and the start of its
 * body. node:http writes the prepared bytes as they are, where fetch copies a body first.
 */
function http(t: WorstTarget, method: string, path: string, body: Buffer | null, anonymous = false): Promise<string> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': body?.length ?? 0 };
    if (!anonymous) headers.authorization = `Bearer ${t.token}`;
    const req = request(`${t.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString('utf8', 0, 80).replace(/\s+/g, ' ')}`));
    });
    // A refusal before the body is read may close the connection while the client still writes.
    req.on('error', (err) => resolve(`closed: ${err.message}`));
    req.end(body ?? undefined);
  });
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const sendBody = (t: WorstTarget, extra: Record<string, unknown>) =>
  json({ from: { email: `worst@${t.domain.name}` }, to: [{ email: 'reader@example.net' }], subject: 'Worst', ...extra });

/** A message's bytes, built before the window opens so that the client's encoding is not measured. */
const compose = (message: Record<string, unknown>): Promise<Buffer> => new MailComposer({ subject: 'Worst', ...message }).compile().build();

/** Sends prepared bytes over SMTP, as a stranger or (with `auth`) an SMTP user; answers the server's last reply. */
async function mail(t: WorstTarget, to: string, raw: Buffer, auth = false): Promise<string> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.smtpPort,
    secure: false,
    ignoreTLS: !auth,
    tls: { rejectUnauthorized: false },
    ...(auth ? { auth: { user: t.smtpUser.username, pass: t.smtpUser.password } } : {}),
  });
  try {
    // In pieces: the client's own dot-stuffing of one large piece would hold this process's loop.
    const info = await transport.sendMail({ envelope: { from: `worst@${t.domain.name}`, to: [to] }, raw: inPieces(raw) });
    return info.response;
  } catch (err) {
    return String((err as { response?: string }).response ?? (err as Error).message);
  } finally {
    transport.close();
  }
}

/** Prepares a message to `to` and answers the request that sends it. */
const mailing = (t: WorstTarget, to: string, message: Record<string, unknown>, auth = false) => {
  const raw = compose({ from: `worst@${t.domain.name}`, to, ...message });
  return async () => mail(t, to, await raw, auth);
};

/** Raw MIME of `count` inline parts, or of one html part of `htmlBytes` of `<`. */
const manyParts = (count: number) =>
  'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n' +
  Array.from({ length: count }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\nline ${i}\r\n`).join('') +
  '--b--\r\n';
const ltHtml = (bytes: number) => ({ html: '<'.repeat(bytes) });

const CASES: WorstCase[] = [
  {
    name: 'anonymous 30 MB JSON to /graphql',
    prepare: (t) => {
      const body = Buffer.alloc(30 * MB, 0x20);
      return () => http(t, 'POST', '/graphql', body, true);
    },
  },
  {
    name: '38 MB of tiny JSON values to POST /v1/email',
    prepare: (t) => {
      const body = Buffer.from(`{"tags":[${'0,'.repeat(19 * MB - 1)}0]}`);
      return () => http(t, 'POST', '/v1/email', body);
    },
  },
  {
    name: 'a 25 MB attachment, accepted and delivered',
    prepare: (t) => {
      const body = sendBody(t, { text: 'file', attachments: [{ filename: 'big.pdf', content: randomBytes(25 * MB).toString('base64') }] });
      return () => http(t, 'POST', '/v1/email', body);
    },
    settle: () => sleep(5000),
  },
  {
    name: 'GraphQL list variable of 4 million items',
    prepare: (t) => {
      const emails = Array.from({ length: 4_000_000 }, () => 'a');
      const body = json({ query: 'mutation($e: [String!]!) { create_email_verification_list(name: "x", emails: $e) { id } }', variables: { e: emails } });
      return () => http(t, 'POST', '/graphql', body);
    },
  },
  {
    name: 'a GraphQL bulk send of 500 emails holding 98,000 values (the most a body may)',
    prepare: (t) => {
      const email = (i: number) => ({ from: { email: `worst@${t.domain.name}` }, to: [{ email: `r${i}@example.net` }], subject: 'x', text: 'x', tags: [], headers: Array.from({ length: 62 }, () => ({ name: 'X-A', value: 'b' })) });
      const body = json({ query: 'mutation($e: [JSONObject!]!) { send_bulk_email(emails: $e) { bulk_email_id } }', variables: { e: Array.from({ length: 500 }, (_, i) => email(i)) } });
      return () => http(t, 'POST', '/graphql', body);
    },
  },
  {
    name: 'a /v1 bulk send of 500 emails holding 98,000 values (the most a body may)',
    prepare: (t) => {
      const email = (i: number) => ({ from: { email: `worst@${t.domain.name}` }, to: [{ email: `r${i}@example.net` }], subject: 'x', text: 'x', headers: Array.from({ length: 62 }, () => ({ name: 'X-A', value: 'b' })) });
      const body = json(Array.from({ length: 500 }, (_, i) => email(i)));
      return () => http(t, 'POST', '/v1/bulk-email', body);
    },
    settle: () => sleep(3000),
  },
  {
    name: 'a send to 50 recipients with 1,950 personalization values each',
    prepare: (t) => {
      const to = Array.from({ length: 50 }, (_, i) => ({ email: `p${i}@example.net` }));
      const personalization = to.map(({ email }) => ({ email, data: { name: 'Ann', items: Array.from({ length: 975 }, (_, i) => `i${i}`), more: Array.from({ length: 975 }, (_, i) => `m${i}`) } }));
      const body = sendBody(t, { to, html: '<p>Hello {{ name }}, {{ items | size }} items</p>', personalization });
      return () => http(t, 'POST', '/v1/email', body);
    },
    settle: () => sleep(3000),
  },
  {
    name: '250,000 personalization strings through sort_natural',
    prepare: (t) => {
      const big = Array.from({ length: 250_000 }, (_, i) => `v${(i * 7919) % 250_000}`);
      const body = sendBody(t, { html: '{{ big | sort_natural | size }}', personalization: [{ email: 'reader@example.net', data: { big } }] });
      return () => http(t, 'POST', '/v1/email', body);
    },
  },
  {
    name: 'a template that renders for seconds on small data',
    prepare: (t) => {
      const body = sendBody(t, { html: '{% for i in (1..3000000) %}{{ i | append: "x" | upcase | size }}{% endfor %}' });
      return () => http(t, 'POST', '/v1/email', body);
    },
  },
  {
    name: 'capture growing in a loop',
    prepare: (t) => {
      const body = sendBody(t, { html: '{% capture s %}x{% endcapture %}{% for i in (1..40) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s | size }}' });
      return () => http(t, 'POST', '/v1/email', body);
    },
  },
  ...worstInlineRenders().map(({ html, data }, i): WorstCase => ({
    name: `the largest render kept on the event loop (${i === 0 ? '250 distinct values to clean' : 'one value written 250 times'}), at acceptance and at delivery`,
    prepare: (t) => {
      const body = sendBody(t, { html, personalization: [{ email: 'reader@example.net', data }] });
      return () => http(t, 'POST', '/v1/email', body);
    },
    settle: () => sleep(3000),
  })),
  {
    name: 'a pooled render at acceptance and again at delivery',
    prepare: (t) => {
      const items = Array.from({ length: 1000 }, (_, i) => `item ${i}`);
      const body = sendBody(t, { html: '{% for x in items %}<p>{{ x | upcase }}</p>{% endfor %}', personalization: [{ email: 'reader@example.net', data: { items } }] });
      return () => http(t, 'POST', '/v1/email', body);
    },
    settle: () => sleep(3000),
  },
  {
    name: 'a template of 2 MB of {{a}} saved',
    prepare: (t) => {
      const body = json({ name: 'worst', html: '{{a}}'.repeat(400_000), text: 'x' });
      return () => http(t, 'POST', '/v1/templates', body);
    },
  },
  {
    name: 'DMARC zip of 20 entries of 25 MB zeros, uploaded',
    prepare: (t) => {
      const body = json({ report: zipOfZeros(20, 25 * MB).toString('base64') });
      return () => http(t, 'POST', `/v1/dmarc-monitoring/${t.monitorId}/reports`, body);
    },
  },
  {
    name: 'DMARC gzip of 256 MB zeros, uploaded',
    prepare: (t) => {
      const body = json({ report: gzippedZeros(256 * MB).toString('base64') });
      return () => http(t, 'POST', `/v1/dmarc-monitoring/${t.monitorId}/reports`, body);
    },
  },
  {
    name: 'DMARC report of 10 MB of empty elements (slow XML)',
    prepare: (t) => {
      const body = json({ report: `<?xml version="1.0"?><feedback><record>${'<a/>'.repeat(2_500_000)}</record></feedback>` });
      return () => http(t, 'POST', `/v1/dmarc-monitoring/${t.monitorId}/reports`, body);
    },
  },
  {
    name: 'DMARC zip bomb mailed to a report address without login',
    prepare: (t) => {
      const content = zipOfZeros(20, 25 * MB);
      return mailing(t, t.reportAddress, { text: 'report', attachments: [{ filename: 'r.zip', content, contentType: 'application/zip' }] });
    },
  },
  {
    name: 'inbound mail of 16 MB of < in its html',
    prepare: (t) => mailing(t, t.inboundAddress, ltHtml(16 * MB)),
    settle: () => sleep(2000),
  },
  {
    name: 'inbound mail of 300 MIME parts',
    prepare: (t) => {
      const raw = Buffer.from(`From: a@sender.example\r\nTo: ${t.inboundAddress}\r\nSubject: Parts\r\n${manyParts(300)}`);
      return () => mail(t, t.inboundAddress, raw);
    },
  },
  {
    name: 'relayed mail (SMTP user) of 16 MB of < in its html',
    prepare: (t) => mailing(t, 'reader@example.net', ltHtml(16 * MB), true),
    settle: () => sleep(2000),
  },
  {
    name: 'a verification list of a million empty addresses',
    prepare: (t) => {
      const body = json({ name: 'worst', emails: Array.from({ length: 1_000_000 }, () => '') });
      return () => http(t, 'POST', '/v1/email-verification', body);
    },
  },
  {
    name: '30 logins at once for 30 addresses',
    prepare: (t) => {
      const bodies = Array.from({ length: 30 }, (_, i) => json({ email: `spray${i}@example.net`, password: 'wrong password' }));
      return async () => {
        const answers = await Promise.all(bodies.map((b) => http(t, 'POST', '/auth/login', b, true)));
        return [...new Set(answers.map((a) => a.slice(0, 3)))].join(',');
      };
    },
  },
  {
    name: '20 SMTP logins at once with a wrong password',
    prepare: (t) => async () => {
      const wrong = { ...t, smtpUser: { ...t.smtpUser, password: 'wrong' } };
      const raw = Buffer.from('Subject: x\r\n\r\nx\r\n');
      const answers = await Promise.all(Array.from({ length: 20 }, () => mail(wrong, 'reader@example.net', raw, true)));
      return [...new Set(answers.map((a) => a.slice(0, 3)))].join(',');
    },
  },
];

/** Runs every case (or those whose name holds `only`); each answer and the longest event loop delay of its window. */
export async function sweepWorstInputs(t: WorstTarget, only?: string): Promise<WorstOutcome[]> {
  const outcomes: WorstOutcome[] = [];
  for (const c of CASES.filter((x) => !only || x.name.includes(only))) {
    const request = c.prepare(t);
    // The preparation's garbage is collected before the window opens (`--expose-gc`, package.json's bench:sweep).
    (globalThis as { gc?: () => void }).gc?.();
    await sleep(300);
    resetEventLoopDelayPeak();
    const answer = await request();
    await c.settle?.(t);
    // The sampling timer records a hold on its next run.
    await sleep(2 * 10);
    outcomes.push({ name: c.name, answer, loopDelayMs: Math.round(eventLoopDelayPeakSeconds() * 1000) });
  }
  return outcomes;
}

/**
 * A service in this process with every role, and what the cases aim at: a verified domain, a DMARC
 * monitor, an inbound route and an SMTP user. Mail stays in the capture transport.
 */
export async function startWorstTarget(dir: string, pgPort: number): Promise<{ target: WorstTarget; app: RunningApp }> {
  const token = `mlsn.${randomBytes(32).toString('hex')}`;
  const app = await startApp({
    roles: ['api', 'smtp', 'worker'],
    env: {
      DATA_DIR: dir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: '0',
      HOST: '127.0.0.1',
      SMTP_PORT: '0',
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN: token,
      DMARC_REPORT_DOMAIN: 'reports.worst.test',
      SMTP_ALLOW_INSECURE_AUTH_LOOPBACK: 'true',
      ...NO_API_LIMITS,
    },
  });
  const url = app.url!;
  const ask = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await res.json()) as { data?: Record<string, string> } & Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const gql = async (query: string) => ({ status: 200, body: await ask('POST', '/graphql', { query }), headers: new Headers(), text: '' });
  const domain = await seedDomain({ app, gql } as unknown as TestServer);
  const monitorId = (await ask('POST', '/v1/dmarc-monitoring', { domain_id: domain.id })).data!.id;
  const monitors = (await ask('POST', '/graphql', { query: '{ dmarc_monitors(limit: 10) { id report_address } }' })) as unknown as { data: { dmarc_monitors: { id: string; report_address: string }[] } };
  const reportAddress = monitors.data.dmarc_monitors.find((m) => m.id === monitorId)!.report_address;
  const route = await ask('POST', '/v1/inbound', { domain_id: domain.id, name: 'worst', domain_enabled: false, forwards: [{ type: 'email', value: `copy@${domain.name}` }] });
  const smtpUser = (await ask('POST', `/v1/domains/${domain.id}/smtp-users`, { name: 'worst' })).data as { username: string; password: string };
  return { app, target: { url, token, smtpPort: app.smtpPort!, domain, reportAddress, monitorId, inboundAddress: route.data!.address, smtpUser } };
}
