/**
 * The fault run (bench/fault-run.ts explains what it does and expects), at full size, printing
 * its figures. Exit code 1 if any expectation failed.
 * Usage: npm run bench:faults [-- messages [kills]]   (default 5000 messages at 100/s, 12 kills)
 */
import { runFaults } from './fault-run.js';

const messages = Number(process.argv[2] ?? 5000);
const kills = Number(process.argv[3] ?? 12);
const t0 = Date.now();
const report = await runFaults({
  messages,
  kills,
  senders: 20,
  ratePerSecond: 100,
  pgPort: 5493,
  drainTimeoutMs: 10 * 60_000,
  log: (line) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}`),
});
const { lost, duplicatesInWindow, duplicatesUnexplained, webhookIdsUnstable, failures, ...figures } = report;
console.log(JSON.stringify({ ...figures, lost: lost.length, duplicatesInWindow: duplicatesInWindow.length, duplicatesUnexplained, webhookIdsUnstable }, null, 2));
console.log(failures.length ? `FAILED:\n- ${failures.join('\n- ')}` : 'every expectation held');
process.exit(failures.length ? 1 : 0);
