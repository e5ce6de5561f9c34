import { runFaults } from '../../bench/fault-run.js';

/**
 * The fault run of `npm run bench:faults`, bounded: a few hundred messages through a worker
 * process killed again and again, a PostgreSQL restart (its own embedded cluster) and an SMTP sink
 * that turns slow and then failing. bench/fault-run.ts holds the expectations; each one that
 * fails is a line of `failures`, so a regression names itself here.
 */
it('loses nothing, sends nothing twice outside the SMTP window, and leaves nothing stuck', async () => {
  const lines: string[] = [];
  const report = await runFaults({ messages: 300, kills: 3, senders: 5, ratePerSecond: 30, drainTimeoutMs: 150_000, log: (l) => lines.push(l) });
  // The run's own log goes with a failure: when, relative to the faults, things happened.
  expect({ failures: report.failures, log: report.failures.length ? lines : [] }).toEqual({ failures: [], log: [] });
  // The faults did happen: otherwise the run proves nothing.
  expect(report.kills).toBe(3);
  expect(report.pgRestarts).toBe(1);
  expect(report.sinkDeferrals).toBeGreaterThan(0);
  // Sends refused while PostgreSQL was down were told to come back (503 with retry-after).
  expect(Object.keys(report.refusedWhileDown).filter((status) => status !== '503')).toEqual([]);
  expect(report.accepted).toBe(300);
  expect(report.lost).toEqual([]);
  expect(report.duplicatesUnexplained).toEqual([]);
  expect(report.webhookEventsReceived).toBe(600);
  expect(report.webhookIdsUnstable).toEqual([]);
  expect(report.workerCrashes).toEqual([]);
}, 300_000);
