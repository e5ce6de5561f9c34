import type { SMTPServer, SMTPServerSession } from 'smtp-server';

export const isLoopback = (address: string) => address === '::1' || /^(::ffff:)?127\./.test(address);

/**
 * Credentials cross the wire only inside TLS. SMTP_ALLOW_INSECURE_AUTH_LOOPBACK (off by default)
 * lets clients on loopback log in without STARTTLS, for a local tool that cannot do TLS.
 */
export const authAllowed = (session: Pick<SMTPServerSession, 'secure' | 'remoteAddress'>, loopbackInClear: boolean) =>
  session.secure || (loopbackInClear && isLoopback(session.remoteAddress));

/**
 * smtp-server refuses AUTH before STARTTLS with 538 (allowInsecureAuth: false), but still lists
 * AUTH in its EHLO reply. A client that trusts the list (nodemailer without requireTLS, most MUAs)
 * would send its password in the clear and only then be refused; not listed, it does not try.
 * So EHLO of a session that may not log in yet is answered with AUTH left out, through the
 * session's own disabledCommands for the time of that one (synchronous) reply: the AUTH command
 * itself stays known and gets its 538.
 */
export function hideAuthUntilTls(server: SMTPServer, loopbackInClear: boolean): void {
  const connections = server.connections;
  const add = connections.add.bind(connections);
  connections.add = (connection) => {
    const ehlo = connection.handler_EHLO;
    if (typeof ehlo === 'function') {
      connection.handler_EHLO = function (this: typeof connection, command, callback) {
        const session = this.session;
        if (authAllowed(session, loopbackInClear)) return ehlo.call(this, command, callback);
        const had = Object.prototype.hasOwnProperty.call(session, 'disabledCommands');
        const before = session.disabledCommands;
        session.disabledCommands = [...(before ?? server.options.disabledCommands), 'AUTH'];
        try {
          return ehlo.call(this, command, callback);
        } finally {
          if (had) session.disabledCommands = before;
          else delete session.disabledCommands;
        }
      };
    }
    return add(connection);
  };
}
