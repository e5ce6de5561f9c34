import { SMTPServer, type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';
import type { AppServices } from '../../core/services.js';
import { LIMITS } from '../../modules/sending/send.limits.js';
import type { SmtpUser } from '../../modules/smtp-users/smtp-user.entity.js';
import { SmtpUserService } from '../../modules/smtp-users/smtp-user.service.js';
import { HashingBusy } from '../../lib/password-hashing.js';
import { AuthLimiter } from './limiter.js';
import { checkSender, relayMessage, smtpError, userOf, type RelayUser } from './relay.js';
import { loadTlsCredentials } from './tls.js';
import { processReport } from './bounce.js';
import { receiveInbound } from '../inbound/inbound.receive.js';
import { ingestReportMail } from '../dmarc/report-mail.js';
import { authAllowed, hideAuthUntilTls } from './auth-tls.js';
import { BoundedBuffer, ByteBudget, ConnectionCounter } from './capacity.js';

import { dmarcMonitorOf, ingressOf, INGRESS_NAME, sizeLimitOf, type Ingress } from './ingress.js';

export interface SmtpRelay {
  port: number;
  close(): Promise<void>;
}

export { authAllowed, isLoopback } from './auth-tls.js';

type Session = SMTPServerSession & { ingress?: Ingress; dmarcMonitors?: string[] };

const TOO_MANY = '4.7.0 Too many failed login attempts, try again later';
const NO_ROOM = '4.3.1 Insufficient system storage, try again later';
const BUSY = '4.7.0 Temporary authentication failure: too many logins at once, try again shortly';

/** The SIZE a client announced in MAIL FROM (RFC 1870), if any. */
function announcedSize(session: SMTPServerSession): number | null {
  const from = session.envelope.mailFrom;
  const args = from ? (from.args as Record<string, string> | false | undefined) : undefined;
  const size = args ? Number(args.SIZE ?? NaN) : NaN;
  return Number.isFinite(size) ? size : null;
}

/** What the listener's handlers share. */
interface Listener {
  services: AppServices;
  log: Logger;
  logins: AuthLimiter;
  /** Open sessions per remote address. */
  open: ConnectionCounter;
  /**
   * What the messages of sessions without a login hold at once, all sessions together: with
   * SMTP_MAX_CLIENTS sessions each at its size limit, memory would otherwise be clients x limit.
   */
  unauthenticated: ByteBudget;
  loopbackInClear: boolean;
}

type Done<T> = (err: Error | null, value?: T) => void;

/**
 * Runs a handler's work and settles its callback whatever happens: an error with a reply code is
 * that reply, anything else a 451 for the command, never a crash of the process.
 */
function guarded<T>(listener: Listener, what: string, session: SMTPServerSession, work: () => Promise<T>, done: Done<T>) {
  const settle = (err: Error | null, value?: T) => {
    try {
      done(err, value);
    } catch (e) {
      listener.log.error({ err: e, what }, 'smtp callback failed');
    }
  };
  work().then(
    (value) => settle(null, value),
    (err: Error & { responseCode?: number }) => {
      if (err?.responseCode) return settle(err);
      listener.log.error({ err, what, session: session.id, remote: session.remoteAddress }, 'smtp handler failed');
      settle(smtpError(451, '4.3.0 Temporary server error, try again later'));
    },
  );
}

/**
 * AUTH's check of a username and password, counted by `logins` before the password is checked
 * (limiter.ts). 538 before STARTTLS, 421 past a limit, 454 when the hashing cap is full (nothing
 * counted), 535 for a wrong password, an unknown username or a disabled user.
 */
async function logIn(listener: Listener, auth: SMTPServerAuthentication, session: SMTPServerSession): Promise<SmtpUser> {
  if (!authAllowed(session, listener.loopbackInClear)) throw smtpError(538, '5.7.11 Encryption required: issue STARTTLS first');
  const address = session.remoteAddress;
  const username = auth.username ?? '';
  const attempt = listener.logins.begin(address, username);
  if (!attempt) throw smtpError(421, TOO_MANY);
  let user: SmtpUser | null;
  try {
    user = await new SmtpUserService(listener.services.orm.em.fork(), listener.services).authenticate(username, auth.password ?? '');
  } catch (err) {
    attempt.abandoned();
    // A temporary failure (RFC 4954): the client tries again.
    if (err instanceof HashingBusy) throw smtpError(454, BUSY);
    throw err;
  }
  if (!user) {
    listener.log.info({ remote: address, username }, 'smtp authentication failed');
    throw smtpError(535, '5.7.8 Authentication credentials invalid');
  }
  attempt.succeeded();
  return user;
}

/** RCPT TO of a session without a login: only what ingress.ts lets in, one kind per transaction, within its size. */
async function admitRecipient(listener: Listener, session: Session, address: string): Promise<void> {
  const kind = await ingressOf(listener.services, address);
  if (!kind) throw smtpError(530, '5.7.0 Authentication required: this server relays only for its SMTP users');
  // One transaction carries one kind of mail; the other recipients can follow in another.
  if (session.ingress && session.ingress !== kind) throw smtpError(451, '4.5.3 Send this recipient in a separate transaction');
  const limit = sizeLimitOf(listener.services.config, kind);
  const size = announcedSize(session);
  if (size !== null && size > limit) throw smtpError(552, `5.3.4 Message too big: ${INGRESS_NAME[kind]} may have at most ${limit} bytes`);
  // The message could not be taken now: better said before the client sends it.
  if (!listener.unauthenticated.hasRoomFor(size)) throw smtpError(452, NO_ROOM);
  session.ingress = kind;
  if (kind === 'dmarc') session.dmarcMonitors = [...(session.dmarcMonitors ?? []), (await dmarcMonitorOf(listener.services, address))!];
}

/** DATA: the message kept in a bounded buffer as it streams, then taken whole, or refused for its size. */
function receiveData(listener: Listener, stream: SMTPServerDataStream, session: Session, callback: Done<string>): void {
  const { config } = listener.services;
  const ingress = session.ingress;
  // A logged-in user answers for its mail; anyone else's draws on the shared budget.
  const buffer = session.user || !ingress
    ? new BoundedBuffer(config.SMTP_MAX_MESSAGE_BYTES, null)
    : new BoundedBuffer(sizeLimitOf(config, ingress), listener.unauthenticated);
  let ended = false;
  stream.on('data', (chunk: Buffer) => buffer.push(chunk));
  stream.on('error', (err) => listener.log.warn({ err, session: session.id }, 'smtp data stream error'));
  // A client gone mid-DATA: the stream closes without 'end'.
  stream.on('close', () => {
    if (!ended) buffer.release();
  });
  stream.on('end', () => {
    ended = true;
    const answer = (err: Error | null, message?: string) => {
      buffer.release();
      callback(err, message);
    };
    // smtp-server answers 552 itself (rejectOversized); the partial message is dropped.
    if (stream.sizeExceeded) return answer(smtpError(552, `5.3.4 Message exceeds the maximum size of ${config.SMTP_MAX_MESSAGE_BYTES} bytes`));
    if (buffer.state === 'too-big') {
      return answer(smtpError(552, `5.3.4 Message too big: ${ingress ? INGRESS_NAME[ingress] : 'messages'} may have at most ${buffer.limit} bytes`));
    }
    if (buffer.state === 'no-room') {
      listener.log.warn({ session: session.id, remote: session.remoteAddress, inUse: listener.unauthenticated.inUse }, 'smtp buffer budget exhausted');
      return answer(smtpError(452, NO_ROOM));
    }
    const raw = buffer.take();
    guarded(listener, 'data', session, () => takeMessage(listener, session, raw), answer);
  });
}

/** A whole message taken: relayed for a logged-in user, else read as what its recipients said it is (ingress.ts). */
async function takeMessage(listener: Listener, session: Session, raw: Buffer): Promise<string> {
  const { services, log } = listener;
  const envelope = session.envelope.rcptTo.map((r) => r.address);
  if (session.user) return relayMessage(services, session.user as RelayUser, raw, envelope);
  if (session.ingress === 'report') {
    // Accepted whatever it says (refusing a report would only make the reporter retry it),
    // unless it cannot be read within its limits.
    const outcome = await processReport(services, { rcptTo: envelope, raw });
    log.info({ outcome, session: session.id }, 'smtp report received');
    if (outcome.refusal) throw smtpError(outcome.refusal.code, outcome.refusal.message);
    return 'Report received';
  }
  if (session.ingress === 'dmarc') {
    const outcome = await ingestReportMail(services, [...new Set(session.dmarcMonitors)], raw);
    log.info({ outcome, session: session.id }, 'smtp dmarc report received');
    // Nothing usable in it: a permanent answer, since sending it again cannot help.
    if (!outcome.stored && !outcome.duplicates) throw smtpError(554, `5.6.0 ${outcome.problems[0].replace(/[^\x20-\x7e]+/g, ' ').slice(0, 400)}`);
    return `${outcome.stored} DMARC report(s) stored`;
  }
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const client = { ip: session.remoteAddress, helo: session.hostNameAppearsAs };
  const result = await receiveInbound(services, { mailFrom, rcptTo: envelope, raw, client });
  if (!result.accepted) throw smtpError(result.code, result.message);
  return result.message;
}

/**
 * The `smtp` role: SMTP users submit mail on SMTP_PORT; each message enters the POST /v1/email
 * pipeline. Every handler settles its callback whatever happens (guarded).
 */
export async function startSmtpRelay(services: AppServices): Promise<SmtpRelay> {
  const { config } = services;
  const log = services.log.child({ component: 'smtp' });
  const tls = await loadTlsCredentials(config);
  log.info({ source: tls.source }, 'smtp TLS certificate loaded');
  const listener: Listener = {
    services,
    log,
    logins: new AuthLimiter(),
    open: new ConnectionCounter(config.SMTP_MAX_CONNECTIONS_PER_ADDRESS),
    unauthenticated: new ByteBudget(config.SMTP_UNAUTHENTICATED_BUFFER_BYTES),
    loopbackInClear: config.SMTP_ALLOW_INSECURE_AUTH_LOOPBACK,
  };
  const server = new SMTPServer({
    name: config.SMTP_PUBLIC_HOST,
    key: tls.key,
    cert: tls.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    // Other mail servers deliver bounces, complaints and inbound mail without logging in;
    // onRcptTo decides what such a session may send to.
    authOptional: true,
    // Off: smtp-server answers AUTH before STARTTLS with 538 itself. On (loopback may log in
    // without TLS), onAuth still refuses every other address, and EHLO hides AUTH from them.
    allowInsecureAuth: listener.loopbackInClear,
    size: config.SMTP_MAX_MESSAGE_BYTES,
    rejectOversized: true,
    maxRecipients: LIMITS.to + LIMITS.cc + LIMITS.bcc,
    // Past this many open connections smtp-server greets with 421 and closes.
    maxClients: config.SMTP_MAX_CLIENTS,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 2000,

    onConnect(session, callback) {
      guarded(listener, 'connect', session, async () => {
        if (listener.logins.clientBlocked(session.remoteAddress)) throw smtpError(421, TOO_MANY);
        if (!listener.open.admit(session.id, session.remoteAddress)) {
          throw smtpError(421, '4.7.0 Too many connections from your address, try again later');
        }
      }, callback);
    },

    onClose: (session) => listener.open.release(session.id),

    onAuth(auth, session, callback) {
      guarded(listener, 'auth', session, async () => ({ user: userOf(await logIn(listener, auth, session)) }), callback);
    },

    onMailFrom(address, session, callback) {
      guarded(listener, 'mail from', session, async () => {
        (session as Session).ingress = undefined;
        (session as Session).dmarcMonitors = undefined;
        // Without a login the sender is another mail server's business (bounces use the null sender).
        if (session.user) session.user = await checkSender(services, session.user as RelayUser, address.address);
      }, callback);
    },

    onRcptTo(address, session, callback) {
      guarded(listener, 'rcpt to', session, async () => {
        if (!session.user) await admitRecipient(listener, session as Session, address.address);
      }, callback);
    },

    onData(stream, session, callback) {
      receiveData(listener, stream, session as Session, callback);
    },
  });
  hideAuthUntilTls(server, listener.loopbackInClear);
  // Resets and failed TLS handshakes are routine on a public port: worth a line, not an alarm.
  server.on('error', (err) => log.info({ err }, 'smtp connection error'));

  const port = await listen(server, config.SMTP_PORT, config.HOST);
  log.info({ port }, 'smtp listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Listens on `port` (0: any free one) and answers the port bound. */
async function listen(server: SMTPServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const bound = server.server.address();
  return typeof bound === 'object' && bound ? bound.port : port;
}
