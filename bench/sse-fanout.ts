/**
 * bench:subscriptions' baseline: a bare SSE fan-out in its own process, no GraphQL, no auth, no
 * database. `POST /listen?topic=T` holds an event stream open; `POST /publish?topic=T` with a body
 * writes that body as one `next` event to every stream of T, framed as graphql-yoga frames them.
 * Prints its port on stdout once it listens.
 */
import http from 'node:http';

const streams = new Map<string, Set<http.ServerResponse>>();

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://bench');
  const topic = url.searchParams.get('topic') ?? '';
  if (url.pathname === '/listen') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(':\n\n');
    const set = streams.get(topic) ?? new Set();
    streams.set(topic, set);
    set.add(res);
    res.once('close', () => set.delete(res));
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const frame = `event: next\ndata: ${Buffer.concat(chunks).toString('utf8')}\n\n`;
    for (const stream of streams.get(topic) ?? []) stream.write(frame);
    res.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => console.log(String((server.address() as { port: number }).port)));
process.on('SIGTERM', () => process.exit(0));
