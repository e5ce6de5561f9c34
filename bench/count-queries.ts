/**
 * Preloaded into a service process by bench/drain.ts (`node --import`): counts the queries the
 * process sends through pg (the ORM's pool, pg-boss's, the pubsub's) and writes the count to
 * BENCH_QUERY_COUNT_FILE when the process exits, with the count of each kind (the first words
 * of its text) in `<file>.kinds`, so a bench can say statements per message and which.
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';

let count = 0;
const kinds = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  count++;
  const q = args[0] as string | { text?: string; name?: string } | undefined;
  const text = typeof q === 'string' ? q : (q?.name ?? q?.text ?? '?');
  // The first words only: the whole text of a long statement cost the service measurably per query.
  const kind = text.slice(0, 120).replace(/\s+/g, ' ').trim().slice(0, 60);
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;
const file = process.env.BENCH_QUERY_COUNT_FILE;
if (file) {
  const write = () => {
    writeFileSync(file, String(count));
    writeFileSync(`${file}.kinds`, [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}\t${k}`).join('\n'));
  };
  process.on('exit', write);
  setInterval(write, 1000).unref();
}
