import http from 'node:http';
import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { subscribe } from '../support/sse.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';

/**
 * Live streams at their limits (src/graphql/live-queue.ts, src/http/stream-guard.ts): a client
 * that stops reading holds at most STREAM_BUFFER_EVENTS events and then reads why its stream
 * ended; one that never reads again is cut; an account and a process hold a bounded number of
 * streams; and many listeners of several accounts, domains and access each hear only their own.
 */
const BUFFER = 3;
const PER_ACCOUNT = 70;
const MAX = 150;
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({
    roles: ['api'],
    env: { STREAM_BUFFER_EVENTS: String(BUFFER), STREAM_BEHIND_GRACE_SECONDS: '4', STREAMS_PER_ACCOUNT: String(PER_ACCOUNT), STREAMS_MAX: String(MAX) },
  });
});
afterAll(async () => {
  await s?.close();
});

const ACTIVITY = (domainId: string, fields = 'id type email { subject }') => `subscription { activity(domain_id: "${domainId}") { ${fields} } }`;
const TOKENS = 'subscription { token_events { action } }';

async function send(domain: { name: string }, subject: string, token = ADMIN_TOKEN, html = '<p>hi</p>') {
  const res = await s.rest('POST', '/email', {
    token,
    body: { from: { email: `news@${domain.name}` }, to: [{ email: 'someone@example.com' }], subject, html },
  });
  if (res.status !== 202) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
}

const metric = async (series: string) => sampleOf(await scrapeMetrics(s), series) ?? 0;
const BEHIND = 'postbox_live_streams_stopped_total{why="behind"}';

async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A stream over node:http whose reading the test pauses and resumes; its SSE events as parsed blocks. */
function pausableStream(query: string, token = ADMIN_TOKEN) {
  const events: { event: string; data: any }[] = [];
  let text = '';
  const url = new URL(`${s.url}/graphql/stream`);
  let response!: http.IncomingMessage;
  const opened = new Promise<void>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' } },
      (res) => {
        response = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          let i;
          while ((i = text.indexOf('\n\n')) >= 0) {
            const block = text.slice(0, i);
            text = text.slice(i + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('').trim();
            if (event) events.push({ event, data: data ? JSON.parse(data) : null });
          }
        });
        resolve();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
  const ended = opened.then(() => new Promise<void>((r) => response.once('close', r)));
  return { opened, ended, events, pause: () => response.pause(), resume: () => response.resume(), destroy: () => response.destroy() };
}

/**
 * A live stream of a new domain whose client, once an event showed the stream live, stops reading
 * while events of a megabyte each fill the socket's buffers and then the stream's own, until the
 * server counts the stream as fallen behind. `sent`: the big events sent.
 */
async function fallenBehind(fields: string) {
  const domain = await seedDomain(s);
  const stream = pausableStream(ACTIVITY(domain.id, fields));
  await stream.opened;
  await until('the probe event', async () => {
    await send(domain, 'probe');
    await new Promise((r) => setTimeout(r, 300));
    return stream.events.some((e) => e.event === 'next');
  });
  const open = await metric('postbox_live_streams');
  const behindBefore = await metric(BEHIND);
  stream.pause();
  const html = `<p>${'x'.repeat(1024 * 1024)}</p>`;
  let sent = 0;
  for (; sent < 40 && (await metric(BEHIND)) === behindBefore; sent++) await send(domain, `big ${sent}`, ADMIN_TOKEN, html);
  await until('the stream falls behind', async () => (await metric(BEHIND)) > behindBefore);
  return { stream, sent, open };
}

test('a client that stops reading holds a bounded buffer, then reads why its stream ended, then it completes', async () => {
  const { stream, sent } = await fallenBehind('id type email { subject html }');
  stream.resume();
  await stream.ended;
  const nexts = stream.events.filter((e) => e.event === 'next');
  const last = nexts[nexts.length - 1].data;
  expect(last.errors?.[0]?.extensions?.code).toBe('STREAM_BEHIND');
  expect(last.errors[0].message).toContain(`more than ${BUFFER} events`);
  expect(stream.events[stream.events.length - 1].event).toBe('complete');
  // What was not written before the client paused was dropped: not every big event arrived.
  const delivered = nexts.filter((e) => e.data?.data?.activity?.some((a: any) => a.email.subject.startsWith('big'))).length;
  expect(delivered).toBeLessThan(sent);
});

test('a client that never reads again is cut once the grace has passed', async () => {
  const { stream, open } = await fallenBehind('id email { html }');
  // STREAM_BEHIND_GRACE_SECONDS is 4: the server closes its side though the client reads nothing.
  await until('the server cuts the stream', async () => (await metric('postbox_live_streams')) === open - 1, 15_000);
  stream.destroy();
});

test('many listeners of several accounts, domains and access hear their own domain\'s events and nothing else', async () => {
  const accounts = [{ token: ADMIN_TOKEN }, await createAccount(s, 'Second'), await createAccount(s, 'Third')];
  const listeners: { domainId: string; stream: Awaited<ReturnType<typeof subscribe>> }[] = [];
  const domains: { id: string; name: string; token: string }[] = [];
  for (const account of accounts) {
    for (let d = 0; d < 2; d++) {
      const domain = await seedDomain(s, { token: account.token });
      domains.push({ ...domain, token: account.token });
      // Per domain: the account's full token, and a token limited to the domain.
      const limited = await tokenWith(s, ['activity_read', 'email_full'], domain.id, account.token);
      for (let i = 0; i < 20; i++) {
        const stream = await subscribe(s, ACTIVITY(domain.id), i % 2 ? limited : account.token);
        listeners.push({ domainId: domain.id, stream });
      }
    }
  }
  try {
    const heardProbe = (domainId: string, n: number) => (e: any) => e.data?.activity?.some((a: any) => a.email.subject === `probe ${domainId} ${n}`);
    for (let n = 0; ; n++) {
      if (n === 20) throw new Error('the listeners never all went live');
      for (const d of domains) await send(d, `probe ${d.id} ${n}`, d.token);
      const live = await Promise.all(listeners.map((l) => l.stream.heard(heardProbe(l.domainId, n), 1000)));
      if (live.every(Boolean)) break;
    }
    for (let round = 0; round < 3; round++) for (const d of domains) await send(d, `real ${d.id} ${round}`, d.token);
    for (const { domainId, stream } of listeners) {
      await stream.next((e) => e.data?.activity?.some((a: any) => a.email.subject === `real ${domainId} 2`));
      const subjects = stream.events.flatMap((e) => (e.data?.activity ?? []).map((a: any) => a.email.subject as string));
      expect(subjects.filter((t) => !t.includes(domainId))).toEqual([]);
      expect(subjects.filter((t) => t.startsWith('real')).sort()).toEqual([0, 1, 2].map((r) => `real ${domainId} ${r}`));
    }
  } finally {
    for (const l of listeners) l.stream.close();
  }
});

test('an account holds at most STREAMS_PER_ACCOUNT streams on a process, and a process at most STREAMS_MAX', async () => {
  await until('earlier streams closed', async () => (await metric('postbox_live_streams')) === 0, 15_000);
  const second = await createAccount(s, 'Fourth');
  const third = await createAccount(s, 'Fifth');
  const open: Awaited<ReturnType<typeof subscribe>>[] = [];
  try {
    for (let i = 0; i < PER_ACCOUNT; i++) open.push(await subscribe(s, TOKENS, ADMIN_TOKEN));
    const refused = await subscribe(s, TOKENS, ADMIN_TOKEN);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toBe('60');
    await refused.ended;
    expect(refused.events[0]?.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
    // Another account is not held back by the first one's streams.
    for (let i = 0; i < PER_ACCOUNT; i++) open.push(await subscribe(s, TOKENS, second.token));
    for (let i = 2 * PER_ACCOUNT; i < MAX; i++) open.push(await subscribe(s, TOKENS, third.token));
    const full = await subscribe(s, TOKENS, third.token);
    expect(full.response.status).toBe(503);
    expect(full.response.headers.get('retry-after')).toBe('5');
    await full.ended;
    expect(full.events[0]?.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    // A closed stream frees its place.
    open.shift()!.close();
    await until('a place is free', async () => (await metric('postbox_live_streams')) === MAX - 1);
    const again = await subscribe(s, TOKENS, ADMIN_TOKEN);
    expect(again.response.status).toBe(200);
    open.push(again);
  } finally {
    for (const stream of open) stream.close();
  }
});
