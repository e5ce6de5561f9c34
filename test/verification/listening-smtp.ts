import { SMTPServer } from 'smtp-server';

function listen(server: SMTPServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
}

/**
 * A real SMTP server on 127.0.0.1 and on ::1, one port, that counts TCP connections, whatever
 * happens after them, and accepts every message. For the tests that point MX records at loopback
 * forms and assert that nothing connected. Only those two addresses: 127.0.0.2 stays closed.
 */
export async function startListeningSmtp() {
  const peers: string[] = [];
  let messages = 0;
  const make = () => {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          messages++;
          callback();
        });
      },
    });
    server.on('error', () => undefined);
    // Counted at the socket, before any SMTP greeting, so a client that hangs up at once counts too.
    server.server.on('connection', (socket) => peers.push(socket.remoteAddress ?? '?'));
    return server;
  };
  let servers: SMTPServer[] = [];
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    const v4 = make();
    await listen(v4, 0, '127.0.0.1');
    port = (v4.server.address() as { port: number }).port;
    const v6 = make();
    try {
      await listen(v6, port, '::1');
      servers = [v4, v6];
      break;
    } catch (err) {
      // The port is taken on ::1: another pair.
      await new Promise<void>((resolve) => v4.close(() => resolve()));
      if (attempt >= 5) throw err;
    }
  }
  return {
    port,
    /** Remote addresses of the connections so far. */
    peers,
    get connections() {
      return peers.length;
    },
    get messages() {
      return messages;
    },
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined),
  };
}

export type ListeningSmtp = Awaited<ReturnType<typeof startListeningSmtp>>;

/** Any IPv4 address, or anything with two colons (an IPv6 form). */
export const LOOKS_LIKE_IP = /\b\d{1,3}(?:\.\d{1,3}){3}\b|[0-9a-f]*:[0-9a-f]*:[0-9a-f.:]*/i;
