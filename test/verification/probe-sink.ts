import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for verification probes, answering RCPT TO per domain: a catch-all domain
 * accepts every address, any other domain only its `mailbox()` addresses (550 for the rest, so
 * the random-address test sees a refusal). `refuse` and `stall` override one address. It keeps
 * what the probe said, so tests can check HELO, MAIL FROM and that DATA never came.
 */
export async function startProbeSink() {
  const catchAll = new Set<string>();
  const mailboxes = new Set<string>();
  const refusals = new Map<string, { code: number; text: string }>();
  const stalled = new Set<string>();
  const sessions: { helo: string; from: string; rcpt: string[] }[] = [];
  let dataCommands = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onMailFrom(address, session, callback) {
      sessions.push({ helo: session.hostNameAppearsAs, from: address.address, rcpt: [] });
      callback();
    },
    onRcptTo(address, _session, callback) {
      const addr = address.address.toLowerCase();
      sessions[sessions.length - 1]?.rcpt.push(addr);
      if (stalled.has(addr)) return;
      const refusal = refusals.get(addr);
      if (refusal) return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
      if (mailboxes.has(addr) || catchAll.has(addr.split('@')[1])) return callback();
      callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      dataCommands++;
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as { port: number }).port,
    sessions,
    get dataCommands() {
      return dataCommands;
    },
    catchAll: (domain: string) => catchAll.add(domain.toLowerCase()),
    mailbox: (address: string) => mailboxes.add(address.toLowerCase()),
    refuse: (address: string, code: number, text = `refused by the test sink (${code})`) => refusals.set(address.toLowerCase(), { code, text }),
    stall: (address: string) => stalled.add(address.toLowerCase()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
