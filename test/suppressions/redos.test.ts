import { Account } from '../../src/modules/accounts/account.entity.js';
import { Domain } from '../../src/modules/domains/domain.entity.js';
import { reasonsFor } from '../../src/modules/suppressions/suppression.matcher.js';
import { Suppression } from '../../src/modules/suppressions/suppression.entity.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { emailsOf } from '../sending/helpers.js';
import { Interval } from '../support/loop-watch.js';

/**
 * Blocklist patterns run on every send, in the API and the worker, so none may stall the event
 * loop. Patterns that make a backtracking engine (JS RegExp) take exponential time are accepted
 * and matched by RE2 in time linear in the address; what RE2 cannot run that way is refused.
 */
let s: TestServer;
let domain: { id: string; name: string };
let accountId: string;
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  accountId = await accountIdOf(s);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

// Each of these takes a backtracking engine exponential time on a run of word characters that
// does not end the way the pattern wants: `(\w*)` fifteen times then `!` tries every way of cutting
// the run into fifteen pieces before giving up. With JS RegExp (flag i) on `a…a@example.net`, each
// takes seconds on a few dozen a's at most.
const HOSTILE = [
  '(\\w*)'.repeat(15) + '!',
  '(a+)+$',
  '(a|aa)+$',
  '(.*a){20}!',
  '(x+x+)+y',
  '^(\\w+\\s?)*$',
];
const KB64 = 64 * 1024;
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const addPatterns = (patterns: string[], domain_id = domain.id) =>
  s.rest('POST', '/suppressions/blocklist', { body: { domain_id, patterns } });
const send = (to: string[]) =>
  s.rest('POST', '/email', {
    body: { from: { email: `hello@${domain.name}` }, to: to.map((email) => ({ email })), subject: 'S', text: 'T' },
  });
/** How long `work` held this thread (the server runs in it): wall time, but no more than the CPU it spent (loop-watch.ts). */
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const interval = new Interval();
  const out = await work();
  return [out, interval.heldMs()];
};

describe('hostile blocklist patterns', () => {
  it('are accepted when RE2 runs them in linear time, refused (422) when it cannot run them', async () => {
    const ok = await addPatterns(HOSTILE);
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((e: any) => e.pattern)).toEqual(HOSTILE);

    const refused = await addPatterns(['^ok@', '(a)\\1', '(?=a)a', '(?<!x)y', '(\\w{31}){31}', 'x{1001}']);
    expect(refused.status).toBe(422);
    const unsupported = (i: number) =>
      `The patterns.${i} uses syntax blocklist patterns do not support (such as backreferences or lookaround); they use RE2 syntax.`;
    const complex = (i: number) => `The patterns.${i} is too complex; write it with smaller repetition counts ({n}).`;
    expect(refused.body).toEqual(
      invalid({
        'patterns.1': [unsupported(1)],
        'patterns.2': [unsupported(2)],
        'patterns.3': [unsupported(3)],
        'patterns.4': [complex(4)],
        'patterns.5': [complex(5)],
      }),
    );
  });

  it('match a 64 KB address in linear time, and the send API never lets such an address reach them', async () => {
    const d = await seedDomain(s);
    expect((await addPatterns(HOSTILE, d.id)).status).toBe(201);

    // Through the public path the matcher never sees a 64 KB address: POST /v1/email refuses any
    // address over 320 characters (64 in the local part) before suppressions are looked up. So the
    // 422 is asserted here, and the matcher is measured directly below with the stored patterns.
    const long = `${'a'.repeat(KB64)}@example.net`;
    const [refused, refusedMs] = await timed(() => send([long]));
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['to.0.email']);
    expect(refusedMs).toBeLessThan(1000);

    const em = () => s.app.services.orm.em.fork();
    // The first call compiles the patterns (and the JIT warms up); sends after it find them cached.
    expect((await reasonsFor(em(), accountId, d.id, ['warm@example.net'])).size).toBe(0);
    const words = `${'a'.repeat(KB64)}@example.net`;
    const mixed = `${Array.from({ length: KB64 }, (_, i) => 'ab_9'[i % 4]).join('')}@example.net`;
    for (const address of [words, mixed]) {
      // The fastest of three: other work on the machine (2 shared cores) can only add time, and a
      // backtracking engine would take years here, not tens of milliseconds. The first run, which
      // also builds RE2's DFA states for the address, gets a looser bound for the same reason.
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const [reasons, ms] = await timed(() => reasonsFor(em(), accountId, d.id, [address]));
        // None matches: no `!` or `y` in the address, which ends in `.net` and has `@` and `.` in it.
        expect(reasons.size).toBe(0);
        runs.push(ms);
      }
      // Linear matching takes a few milliseconds here; the bounds are generous for a shared machine.
      expect(runs[0]).toBeLessThan(250);
      expect(Math.min(...runs)).toBeLessThan(50);
    }
  });

  it('still blocklist an address a pattern matches, case-insensitively and anywhere unless anchored', async () => {
    const d = await seedDomain(s);
    expect((await addPatterns(['BLOCKED-\\d+@example\\.net', '^ceo@'], d.id)).status).toBe(201);
    const got = await reasonsFor(s.app.services.orm.em.fork(), accountId, d.id, [
      'x.blocked-12@example.net', 'Blocked-7@EXAMPLE.net', 'ceo@example.net', 'the-ceo@example.net',
    ]);
    expect(Object.fromEntries(got)).toEqual({
      'x.blocked-12@example.net': 'blocklisted',
      'Blocked-7@EXAMPLE.net': 'blocklisted',
      'ceo@example.net': 'blocklisted',
    });
  });
});

describe('many costly patterns', () => {
  it('are refused together (422 on patterns) when one request would take long to compile them', async () => {
    // Each of these compiles to about 880 instructions: allowed alone, not sixty at once.
    const heavy = Array.from({ length: 60 }, (_, i) => `(\\w{20}){20}(\\w{20}){20}${i}`);
    const [res, ms] = await timed(() => addPatterns(heavy));
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ patterns: ['The patterns are too complex together; add them in smaller batches.'] }));
    expect(ms).toBeLessThan(1000);
  });

  it('let the event loop run while an address is matched against them', async () => {
    const d = await seedDomain(s);
    // A DFA cannot be kept small for these (it needs a state per recent run of a's and b's), so
    // each test falls back to slower matching: still linear, but slow enough to be seen.
    const patterns = Array.from({ length: 30 }, (_, i) => `[ab]*a[ab]{${100 + i}}!`);
    expect((await addPatterns(patterns, d.id)).status).toBe(201);
    const ab = (n: number) => Array.from({ length: n }, () => (Math.random() < 0.5 ? 'a' : 'b')).join('');
    const addresses = Array.from({ length: 10 }, () => `${ab(64)}@${ab(60)}.${ab(60)}.${ab(60)}.${ab(60)}.net`);

    // Each gap between two ticks counts the time it held this thread (loop-watch.ts Interval): a
    // machine whose cores other processes took stretches the wall time only.
    let gap = 0;
    let tick = new Interval();
    const ticker = setInterval(() => {
      gap = Math.max(gap, tick.heldMs());
      tick = new Interval();
    }, 1);
    const [reasons, ms] = await timed(() => reasonsFor(s.app.services.orm.em.fork(), accountId, d.id, addresses));
    await new Promise((resolve) => setTimeout(resolve, 5)); // lets the ticker see the last stretch
    clearInterval(ticker);
    expect(reasons.size).toBe(0);
    // The check takes long enough to see (over 100 ms), and a 1 ms timer still runs within it:
    // a matcher that did not give the loop back would hold the timer for the whole check.
    expect(ms).toBeGreaterThan(100);
    expect(gap).toBeLessThan(250);
  });
});

describe('a send to an address a stored pattern matches', () => {
  it('is suppressed as blocklisted; stored patterns RE2 refuses are skipped, never failing the send', async () => {
    // Patterns stored before the RE2 rule, which it would now refuse, written as they were then.
    const em = s.app.services.orm.em.fork();
    for (const pattern of ['(a)\\1', '(?=z)z', '\\w{999}'.repeat(27)]) {
      em.create(Suppression, {
        account: em.getReference(Account, accountId),
        domain: em.getReference(Domain, domain.id),
        list: 'blocklist',
        type: 'pattern',
        pattern,
      } as never);
    }
    await em.flush();
    expect((await addPatterns(['^spam-[0-9]+@example\\.net$'])).status).toBe(201);

    const blocked = `spam-${Date.now()}@example.net`;
    const fine = `fine-${Date.now()}@example.net`;
    const res = await send([blocked, fine]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      message: 'There are some warnings for your request.',
      warnings: [{ type: 'SOME_SUPPRESSED', warning: expect.any(String), recipients: [{ email: blocked, name: null, reasons: ['blocklisted'] }] }],
    });
    const rows = await emailsOf(s, res.headers.get('x-message-id')!);
    expect(rows.map((r) => [r.to_email, r.status === 'suppressed' ? r.suppression_reason : 'sent'])).toEqual([
      [blocked, 'blocklisted'],
      [fine, 'sent'],
    ]);
  });
});
