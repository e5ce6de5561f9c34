import net from 'node:net';

export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Body bytes this client had written when the answer's head arrived. */
  sentBeforeAnswer: number;
}

/**
 * An HTTP/1.1 upload over a raw socket, written piece by piece by the test, so it can tell whether
 * the server answered before the body was all there (fetch would write it all first). `length`
 * announces a Content-Length; without it the body is chunked.
 */
export function startUpload(baseUrl: string, opts: { method?: string; path: string; headers?: Record<string, string>; length?: number }) {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const chunked = opts.length === undefined;
  const head = [
    `${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    chunked ? 'transfer-encoding: chunked' : `content-length: ${opts.length}`,
    ...Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  let sent = 0;
  let raw = Buffer.alloc(0);
  let sentAtHead: number | null = null;
  const answer = new Promise<EarlyAnswer>((resolve, reject) => {
    const tryParse = () => {
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return;
      sentAtHead ??= sent;
      const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? NaN);
      const body = raw.subarray(end + 4);
      if (!(body.length >= length)) return;
      const text = body.subarray(0, length).toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed, sentBeforeAnswer: sentAtHead });
    };
    socket.on('data', (chunk) => {
      raw = Buffer.concat([raw, chunk]);
      tryParse();
    });
    socket.on('error', (err) => reject(err));
    socket.on('close', () => reject(new Error(`closed without a whole answer: ${raw.toString('latin1').slice(0, 300)}`)));
  });
  answer.catch(() => undefined);
  return {
    answer,
    /** Writes `bytes` more of the body (a chunk of its own when chunked). */
    write(bytes: number, fill = 'a'): Promise<void> {
      const data = Buffer.alloc(bytes, fill);
      sent += bytes;
      const framed = chunked ? Buffer.concat([Buffer.from(`${bytes.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
      return new Promise((resolve) => (socket.write(framed) ? resolve() : socket.once('drain', () => resolve())));
    },
    /** Writes `text` as the next part of the body. */
    writeText(text: string): Promise<void> {
      const data = Buffer.from(text);
      sent += data.length;
      const framed = chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
      return new Promise((resolve) => (socket.write(framed) ? resolve() : socket.once('drain', () => resolve())));
    },
    /** Ends a chunked body. */
    finish: () => void socket.write('0\r\n\r\n'),
    get sent() {
      return sent;
    },
    close: () => socket.destroy(),
  };
}

/** Settles with the answer, or with null if none came within `ms` (a generous bound: no timing is asserted). */
export function answerWithin(answer: Promise<EarlyAnswer>, ms: number): Promise<EarlyAnswer | null> {
  return Promise.race([answer.catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), ms).unref())]);
}
