import net from 'node:net';
import tls from 'node:tls';

/**
 * A line-level SMTP client for what nodemailer will not send: garbage, STARTTLS by hand, DATA
 * without a SIZE announcement.
 */
export async function rawSmtp(port: number, opts: { localAddress?: string } = {}) {
  // localAddress: another loopback address (127.0.0.2, ...) is another client address to the server.
  let socket: net.Socket | tls.TLSSocket = net.connect({ port, host: '127.0.0.1', localAddress: opts.localAddress });
  let buffer = '';
  let waiting: ((reply: string) => void) | null = null;
  let ended = false;
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    flush();
  };
  // A reply is complete at a line `NNN text` (not `NNN-text`).
  function flush() {
    const m = /(^|\r\n)\d{3} [^\r\n]*\r\n/.exec(buffer);
    if (!m || !waiting) return;
    const end = m.index + m[0].length;
    const reply = buffer.slice(0, end).trim();
    buffer = buffer.slice(end);
    const w = waiting;
    waiting = null;
    w(reply);
  }
  const next = () =>
    new Promise<string>((resolve) => {
      waiting = resolve;
      flush();
      if (ended && waiting) {
        waiting = null;
        resolve('(closed)');
      }
    });
  const attach = (s: net.Socket) => {
    s.on('data', onData);
    s.on('error', () => undefined);
    s.on('close', () => {
      ended = true;
      if (waiting) {
        const w = waiting;
        waiting = null;
        w('(closed)');
      }
    });
  };
  attach(socket);
  const greeting = await next();
  return {
    greeting,
    get closed() {
      return ended;
    },
    async send(line: string): Promise<string> {
      socket.write(`${line}\r\n`);
      return next();
    },
    /** Writes without waiting for a reply (DATA content). */
    write(data: string | Buffer) {
      socket.write(data);
    },
    /** Writes `chunk` `times` times, waiting whenever the socket's buffer is full (big DATA, little memory). */
    async pump(chunk: Buffer, times: number) {
      for (let i = 0; i < times && !ended; i++) {
        if (socket.write(chunk)) continue;
        const s = socket;
        await new Promise<void>((resolve) => {
          const done = () => {
            s.off('drain', done);
            s.off('close', done);
            resolve();
          };
          s.on('drain', done);
          s.on('close', done);
        });
      }
    },
    next,
    async startTls(): Promise<tls.PeerCertificate> {
      const answer = await this.send('STARTTLS');
      if (!answer.startsWith('220')) throw new Error(`STARTTLS refused: ${answer}`);
      socket.removeListener('data', onData);
      const secure = tls.connect({ socket: socket as net.Socket, rejectUnauthorized: false, servername: 'localhost' });
      await new Promise<void>((resolve, reject) => secure.once('secureConnect', resolve).once('error', reject));
      socket = secure;
      attach(secure);
      return secure.getPeerCertificate();
    },
    close() {
      socket.destroy();
    },
    /** QUIT, then the server's close: the connection no longer counts against any limit. */
    async quit(): Promise<void> {
      if (!ended) await this.send('QUIT');
      while (!ended) await new Promise((r) => setTimeout(r, 10));
    },
  };
}
