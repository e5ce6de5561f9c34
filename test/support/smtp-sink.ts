import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  /** Whether MAIL FROM asked for SMTPUTF8 (the envelope itself is reported in Unicode either way). */
  smtputf8: boolean;
  raw: string;
  /** When the client began this message (MAIL FROM) and when the sink answered 250, ms since epoch. */
  mailAt: number;
  at: number;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives.
 * - `refuse(address, code, text?)` answers RCPT TO for that address with the code (4xx or 5xx) and text.
 * - `stall(address)` never answers RCPT TO for it, so the client times out.
 * - `holdMs` delays the final answer to DATA; a message whose client hangs up during the hold was
 *   never accepted (no 250 was sent) and is not kept, as a real MTA would not deliver it. It can
 *   be changed while the sink runs.
 * - `failData = code` answers every DATA with that code (a 451 defers everything) until set to 0.
 */
export async function startSmtpSink(opts: { holdMs?: number } = {}) {
  let holdMs = opts.holdMs ?? 0;
  let failData = 0;
  let dataFailures = 0;
  const mailAt = new Map<string, number>();
  const received: Received[] = [];
  const attempts: string[] = [];
  const refusals = new Map<string, { code: number; text: string }>();
  const stalled = new Set<string>();
  const closed = new Set<string>();
  let holding = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A stalled client must not keep close() waiting.
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      attempts.push(address.address);
      if (stalled.has(address.address.toLowerCase())) return;
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal) return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
      callback();
    },
    onMailFrom(_address, session, callback) {
      mailAt.set(session.id, Date.now());
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failData) {
          dataFailures++;
          return callback(Object.assign(new Error(`refused by the test sink (${failData})`), { responseCode: failData }));
        }
        const accept = () => {
          if (closed.has(session.id)) return;
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            smtputf8: Boolean(session.envelope.mailFrom && session.envelope.mailFrom.args && session.envelope.mailFrom.args.SMTPUTF8),
            raw: Buffer.concat(chunks).toString('utf8'),
            mailAt: mailAt.get(session.id) ?? 0,
            at: Date.now(),
          });
          callback();
        };
        if (!holdMs) return accept();
        holding++;
        setTimeout(() => {
          holding--;
          accept();
        }, holdMs);
      });
    },
    onClose(session) {
      closed.add(session.id);
    },
  });
  // A client killed mid-session resets its connection: the sink, like a real MTA, carries on.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received,
    attempts,
    /** `text` is what follows the code (a provider's words, say); by default the sink names itself. */
    refuse(address: string, code: number, text = `refused by the test sink (${code})`) {
      refusals.set(address.toLowerCase(), { code, text });
    },
    stall(address: string) {
      stalled.add(address.toLowerCase());
    },
    /** Accepts the address normally again. */
    release(address: string) {
      stalled.delete(address.toLowerCase());
      refusals.delete(address.toLowerCase());
    },
    set holdMs(ms: number) {
      holdMs = ms;
    },
    set failData(code: number) {
      failData = code;
    },
    /** How many DATA commands `failData` refused. */
    get dataFailures() {
      return dataFailures;
    },
    /** How many messages are being held right now (with `holdMs`). */
    get holding() {
      return holding;
    },
    /** Waits (up to `ms`, 10 s by default) for a message to `to`. */
    async waitFor(to: string, ms = 10_000): Promise<Received> {
      const deadline = Date.now() + ms;
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
