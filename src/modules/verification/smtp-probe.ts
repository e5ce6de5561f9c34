import net from 'node:net';

/** One SMTP reply: its code and the text of all its lines. */
export interface Reply {
  code: number;
  text: string;
}

export type ProbeOutcome =
  | { kind: 'replies'; rcpt: Reply; random: Reply | null }
  /** The server refused before RCPT TO (greeting, EHLO/HELO or MAIL FROM). */
  | { kind: 'refused'; stage: 'greeting' | 'helo' | 'mail'; reply: Reply }
  /** `detail` names the server's address and the socket error: for the server log, never the caller. */
  | { kind: 'timeout' | 'connection'; detail: string };

export interface ProbeOptions {
  /** An IP address the caller has checked (lib/mail-hosts.ts); never a name, which would be resolved again. */
  host: string;
  port: number;
  heloName: string;
  mailFrom: string;
  address: string;
  /** A local part at the same domain that should not exist, to detect catch-all servers. */
  randomAddress: string;
  deadline: number;
}

/**
 * A minimal SMTP client for the probe: EHLO (HELO as fallback), MAIL FROM, RCPT TO for the address
 * and a random one, QUIT. nodemailer's SMTPConnection always follows RCPT TO with DATA (pipelined
 * when the server allows), and a probe must never start a message, so the dialogue is spoken here.
 */
export function probe(opts: ProbeOptions): Promise<ProbeOutcome> {
  // A name here would be resolved by the system resolver at connect time, past the address check.
  if (!net.isIP(opts.host)) return Promise.resolve({ kind: 'connection', detail: `The probe target ${opts.host} is not an IP address.` });
  return new Promise((resolve) => {
    const socket = net.connect({ host: opts.host, port: opts.port });
    let buffer = '';
    let lines: string[] = [];
    let waiter: ((r: Reply) => void) | null = null;
    const queued: Reply[] = [];
    let settled = false;

    const finish = (outcome: ProbeOutcome, quit: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (quit && socket.writable) socket.end('QUIT\r\n');
      else socket.destroy();
      // A server that never closes after QUIT must not keep the socket open.
      setTimeout(() => socket.destroy(), 500).unref();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ kind: 'timeout', detail: `The SMTP server ${opts.host} did not answer in time.` }, false),
      Math.max(1, opts.deadline - Date.now()),
    );

    socket.setEncoding('utf8');
    socket.on('error', (err) => finish({ kind: 'connection', detail: `Could not talk to the SMTP server ${opts.host}: ${err.message}` }, false));
    socket.on('close', () => finish({ kind: 'connection', detail: `The SMTP server ${opts.host} closed the connection.` }, false));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        // "250-..." continues a multi-line reply; "250 ..." (or a bare code) ends it.
        if (/^\d{3}(?: |$)/.test(line)) {
          const reply = { code: Number(line.slice(0, 3)), text: lines.map((l) => l.slice(4)).join('\n') };
          lines = [];
          if (waiter) {
            const w = waiter;
            waiter = null;
            w(reply);
          } else queued.push(reply);
        }
      }
    });

    const next = () => new Promise<Reply>((r) => (queued.length ? r(queued.shift()!) : (waiter = r)));
    const command = (line: string) => {
      socket.write(`${line}\r\n`);
      return next();
    };

    void (async () => {
      const greeting = await next();
      if (greeting.code !== 220) return finish({ kind: 'refused', stage: 'greeting', reply: greeting }, true);
      let helo = await command(`EHLO ${opts.heloName}`);
      if (helo.code >= 500) helo = await command(`HELO ${opts.heloName}`);
      if (helo.code !== 250) return finish({ kind: 'refused', stage: 'helo', reply: helo }, true);
      const mail = await command(`MAIL FROM:<${opts.mailFrom}>`);
      if (mail.code !== 250) return finish({ kind: 'refused', stage: 'mail', reply: mail }, true);
      const rcpt = await command(`RCPT TO:<${opts.address}>`);
      // Only an accepted address needs the catch-all test.
      const random = rcpt.code >= 200 && rcpt.code < 300 ? await command(`RCPT TO:<${opts.randomAddress}>`) : null;
      finish({ kind: 'replies', rcpt, random }, true);
    })();
  });
}
