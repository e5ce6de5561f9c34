import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives. `refuse` answers RCPT TO for
 * matching addresses with the given code, to drive failures.
 */
export async function startSmtpSink() {
  const received: Received[] = [];
  const attempts: string[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      attempts.push(address.address);
      const code = refusals.get(address.address.toLowerCase());
      if (code) return callback(Object.assign(new Error(`refused by the test sink (${code})`), { responseCode: code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received,
    attempts,
    refuse(address: string, code: number) {
      refusals.set(address.toLowerCase(), code);
    },
    /** Waits (up to 10 s) for a message to `to`. */
    async waitFor(to: string): Promise<Received> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const hit = received.find((m) => m.to.includes(to));
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} reached the sink`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
