/**
 * bench:subscriptions' baseline: a bare SSE fan-out in its own process. It hears the same events
 * the api processes hear (the product's pubsub on PostgreSQL NOTIFY, `DATABASE_URL`), and writes
 * each notice as it came, framed as a `next` event, to every stream of its domain: no GraphQL, no
 * authentication, no database read. `POST /listen?topic=T&domain=D` holds a stream open.
 * Prints its port on stdout once it listens.
 */
import http from 'node:http';
import { createPgPubSub } from '../src/lib/pubsub.js';

const pubsub = await createPgPubSub(process.env.DATABASE_URL!, (err) => console.error(err));
/** topic → domain → streams */
const streams = new Map<string, Map<string, Set<http.ServerResponse>>>();

function listen(topic: string, domain: string, res: http.ServerResponse) {
  let byDomain = streams.get(topic);
  if (!byDomain) {
    streams.set(topic, (byDomain = new Map()));
    const domains = byDomain;
    pubsub.listen(topic, (notice) => {
      const frame = `event: next\ndata: ${JSON.stringify(notice)}\n\n`;
      for (const stream of domains.get((notice as { domain_id: string }).domain_id) ?? []) stream.write(frame);
    });
  }
  const set = byDomain.get(domain) ?? new Set();
  byDomain.set(domain, set);
  set.add(res);
  res.once('close', () => set.delete(res));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://bench');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(':\n\n');
  listen(url.searchParams.get('topic') ?? '', url.searchParams.get('domain') ?? '', res);
  req.resume();
});
server.listen(0, '127.0.0.1', () => console.log(String((server.address() as { port: number }).port)));
process.on('SIGTERM', () => process.exit(0));
