import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A mailbox provider's MX for MAIL_TRANSPORT=mx tests and benches, on a 127.0.0.x address (several
 * on one port, each an MX host of its own): it notes when it takes each message, counts RCPT TO
 * commands, and answers `421 4.7.28` to every message past `allow`, as a provider does to a sender
 * going faster than it accepts.
 */
export interface MxProvider {
  /** When each message was taken, in ms. */
  taken: number[];
  /** Where each message came from: the client's address and the name it gave in EHLO. */
  senders: { address: string; ehlo: string }[];
  /** RCPT TO commands seen, refused ones included. */
  tries: number;
  /** Messages taken before every other is answered 421; Infinity: no limit. */
  allow: number;
  port: number;
  close(): Promise<void>;
}

export async function startMxProvider(address: string, port = 0): Promise<MxProvider> {
  const p = { taken: [] as number[], senders: [] as MxProvider['senders'], tries: 0, allow: Infinity };
  // Counted at RCPT TO, where the answer is given: messages in flight side by side count before their DATA ends.
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onRcptTo(_address, _session, callback) {
      p.tries++;
      if (accepted >= p.allow) {
        return callback(Object.assign(new Error('4.7.28 Our system has detected an unusual rate of unsolicited mail'), { responseCode: 421 }));
      }
      accepted++;
      callback();
    },
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        p.taken.push(Date.now());
        p.senders.push({ address: session.remoteAddress.replace(/^::ffff:/, ''), ehlo: session.hostNameAppearsAs });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return Object.assign(p, {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}

/** An MX offering STARTTLS with the given certificate (MTA-STS and DANE tests): what it took, and whether over TLS. */
export interface TlsMx {
  server: SMTPServer;
  received: { to: string[]; secure: boolean; raw: string }[];
}

export async function startTlsMx(address: string, port: number, tls: { key: string; cert: string }): Promise<TlsMx> {
  const received: TlsMx['received'] = [];
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    ...tls,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), secure: Boolean(session.secure), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return { server, received };
}
