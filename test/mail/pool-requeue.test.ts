import net from 'node:net';
import pino from 'pino';
import { smtpTransport } from '../../src/modules/mail/smtp-transport.js';

/**
 * A pooled connection the server dropped while it sat idle: the next message over it is refused
 * before any of it was read (a 421 to MAIL FROM, then the server hangs up), and the pool must send
 * it over a new connection instead of failing it. The built message reaches the pool as
 * raw-send.ts's body, which must tell the pool that nothing of it was read; a body that cannot
 * tell fails the message with the 421 and defers the email for nothing.
 */
function startIdleClosingServer() {
  const received: string[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    let sent = 0;
    let inData = false;
    let buffer = '';
    let body = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          body += buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(body);
          body = '';
          sent++;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          // This connection already carried a message: the server has closed it meanwhile.
          if (sent > 0) {
            socket.end('421 4.4.2 idle too long, closing connection\r\n');
            return;
          }
          socket.write('250 2.1.0 ok\r\n');
        } else if (verb === 'RCPT') socket.write('250 2.1.5 ok\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else if (verb === 'RSET' || verb === 'NOOP') socket.write('250 ok\r\n');
        else socket.write('502 not implemented\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise<{ port: number; received: string[]; connections: () => number; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        received,
        connections: () => connections,
        // The pool keeps its idle connection open: the server hangs up on it.
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            for (const socket of sockets) socket.destroy();
          }),
      }),
    ),
  );
}

describe('a pooled SMTP connection the server closed while idle', () => {
  it('sends the next message over a new connection', async () => {
    const smtp = await startIdleClosingServer();
    // One connection, so the second message is given the connection the first one used.
    const transport = smtpTransport(`smtp://127.0.0.1:${smtp.port}`, pino({ level: 'silent' }), 'test.example', 5000, 1);
    const mail = (n: number) => ({
      envelope: { from: 'sender@example.com', to: [`reader${n}@example.net`] },
      raw: Buffer.from(`From: sender@example.com\r\nTo: reader${n}@example.net\r\nSubject: number ${n}\r\n\r\nbody ${n}\r\n`),
      meta: { email_id: `email-${n}`, to: `reader${n}@example.net`, from: 'sender@example.com', subject: `number ${n}`, text: `body ${n}`, html: null },
    });
    try {
      await expect(transport.sendRaw(mail(1))).resolves.toMatchObject({ response: expect.stringContaining('250') });
      await expect(transport.sendRaw(mail(2))).resolves.toMatchObject({ response: expect.stringContaining('250') });
      expect(smtp.received).toHaveLength(2);
      expect(smtp.received[1]).toContain('Subject: number 2\r\n\r\nbody 2\r\n');
      expect(smtp.connections()).toBe(2);
    } finally {
      await smtp.close();
    }
  });
});
