import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AppServices } from '../../services.js';
import { LIMITS } from '../sending/send.validate.js';
import { SmtpUserService } from '../smtp-users/smtp-user.service.js';
import { AUTH_LIMITS, FailureLimiter } from './limiter.js';
import { checkSender, relayMessage, smtpError, userOf, type RelayUser } from './relay.js';
import { loadTlsCredentials } from './tls.js';
import { isReturnPath, processReport } from '../bounces/bounce.js';
import { hasInboundRoute, receiveInbound } from '../inbound/inbound.receive.js';
import { ingestReportMail } from '../dmarc/ingest.js';
import { reportKeyOf } from '../dmarc/report-address.js';

export interface SmtpRelay {
  port: number;
  close(): Promise<void>;
}

export const isLoopback = (address: string) => address === '::1' || /^(::ffff:)?127\./.test(address);

/**
 * What mail from a session that did not log in may be for: a report coming back (a DSN to a
 * return-path address, or an ARF complaint to FEEDBACK_ADDRESS), or an inbound route. Anything
 * else needs AUTH: the listener is no open relay.
 */
type Ingress = 'report' | 'inbound' | 'dmarc';

async function ingressOf(services: AppServices, address: string): Promise<Ingress | null> {
  const feedback = services.config.FEEDBACK_ADDRESS?.toLowerCase();
  if (isReturnPath(address) || (feedback && address.toLowerCase() === feedback)) return 'report';
  if (await dmarcMonitorOf(services, address)) return 'dmarc';
  if (await hasInboundRoute(services, address)) return 'inbound';
  return null;
}

/** The DMARC monitor whose report address this is (dmarc/report-address.ts), if any. */
async function dmarcMonitorOf(services: AppServices, address: string): Promise<string | null> {
  const key = reportKeyOf(services.config, address);
  if (!key) return null;
  const [row] = await services.orm.em.fork().execute<{ id: string }[]>('select id from dmarc_monitors where report_key = ?', [key]);
  return row?.id ?? null;
}

type Session = SMTPServerSession & { ingress?: Ingress; dmarcMonitors?: string[] };

/** Credentials may cross the wire in the clear only on loopback: elsewhere STARTTLS comes first. */
export const authAllowed = (session: Pick<SMTPServerSession, 'secure' | 'remoteAddress'>) =>
  session.secure || isLoopback(session.remoteAddress);

const TOO_MANY = '4.7.0 Too many failed login attempts, try again later';

/**
 * The `smtp` role: SMTP users submit mail on SMTP_PORT; each message enters the POST /v1/email
 * pipeline. Every handler settles its callback whatever happens: a failure is a 451 for that
 * command, never a crash of the process.
 */
export async function startSmtpRelay(services: AppServices): Promise<SmtpRelay> {
  const { config } = services;
  const log = services.log.child({ component: 'smtp' });
  const tls = await loadTlsCredentials(config);
  log.info({ source: tls.source }, 'smtp TLS certificate loaded');
  const byUsername = new FailureLimiter(AUTH_LIMITS.username);
  const byAddress = new FailureLimiter(AUTH_LIMITS.address);

  function guarded<T>(what: string, session: SMTPServerSession, work: () => Promise<T>, done: (err: Error | null, value?: T) => void) {
    const settle = (err: Error | null, value?: T) => {
      try {
        done(err, value);
      } catch (e) {
        log.error({ err: e, what }, 'smtp callback failed');
      }
    };
    work().then(
      (value) => settle(null, value),
      (err: Error & { responseCode?: number }) => {
        if (err?.responseCode) return settle(err);
        log.error({ err, what, session: session.id, remote: session.remoteAddress }, 'smtp handler failed');
        settle(smtpError(451, '4.3.0 Temporary server error, try again later'));
      },
    );
  }

  const server = new SMTPServer({
    name: config.SMTP_PUBLIC_HOST,
    key: tls.key,
    cert: tls.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    // Other mail servers deliver bounces, complaints and inbound mail without logging in;
    // onRcptTo decides what such a session may send to.
    authOptional: true,
    // Checked per session in onAuth: loopback clients may skip STARTTLS, nobody else.
    allowInsecureAuth: true,
    size: config.SMTP_MAX_MESSAGE_BYTES,
    rejectOversized: true,
    maxRecipients: LIMITS.to + LIMITS.cc + LIMITS.bcc,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 2000,

    onConnect(session, callback) {
      guarded('connect', session, async () => {
        if (byAddress.blocked(session.remoteAddress)) throw smtpError(421, TOO_MANY);
      }, callback);
    },

    onAuth(auth, session, callback) {
      guarded('auth', session, async () => {
        if (!authAllowed(session)) throw smtpError(538, '5.7.11 Encryption required: issue STARTTLS first');
        const address = session.remoteAddress;
        const username = auth.username ?? '';
        const key = username.toLowerCase();
        if (byAddress.blocked(address) || byUsername.blocked(key)) {
          byAddress.fail(address);
          throw smtpError(421, TOO_MANY);
        }
        const user = await new SmtpUserService(services.orm.em.fork(), services).authenticate(username, auth.password ?? '');
        if (!user) {
          byAddress.fail(address);
          byUsername.fail(key);
          log.info({ remote: address, username }, 'smtp authentication failed');
          throw smtpError(535, '5.7.8 Authentication credentials invalid');
        }
        byUsername.reset(key);
        return { user: userOf(user) };
      }, callback);
    },

    onMailFrom(address, session, callback) {
      guarded('mail from', session, async () => {
        (session as Session).ingress = undefined;
        (session as Session).dmarcMonitors = undefined;
        // Without a login the sender is another mail server's business (bounces use the null sender).
        if (session.user) session.user = await checkSender(services, session.user as RelayUser, address.address);
      }, callback);
    },

    onRcptTo(address, session, callback) {
      guarded('rcpt to', session, async () => {
        if (session.user) return;
        const s = session as Session;
        const kind = await ingressOf(services, address.address);
        if (!kind) throw smtpError(530, '5.7.0 Authentication required: this server relays only for its SMTP users');
        // One transaction carries one kind of mail; the other recipients can follow in another.
        if (s.ingress && s.ingress !== kind) throw smtpError(451, '4.5.3 Send this recipient in a separate transaction');
        s.ingress = kind;
        if (kind === 'dmarc') s.dmarcMonitors = [...(s.dmarcMonitors ?? []), (await dmarcMonitorOf(services, address.address))!];
      }, callback);
    },

    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('error', (err) => log.warn({ err, session: session.id }, 'smtp data stream error'));
      stream.on('end', () => {
        // smtp-server answers 552 itself (rejectOversized); the partial message is dropped.
        if (stream.sizeExceeded) return callback(smtpError(552, `5.3.4 Message exceeds the maximum size of ${config.SMTP_MAX_MESSAGE_BYTES} bytes`));
        const envelope = session.envelope.rcptTo.map((r) => r.address);
        const raw = Buffer.concat(chunks);
        const ingress = (session as Session).ingress;
        guarded('data', session, async () => {
          if (session.user) return relayMessage(services, session.user as RelayUser, raw, envelope);
          if (ingress === 'report') {
            // Accepted whatever it says: refusing a report would only make the reporter retry it.
            const outcome = await processReport(services, { rcptTo: envelope, raw });
            log.info({ outcome, session: session.id }, 'smtp report received');
            return 'Report received';
          }
          if (ingress === 'dmarc') {
            const outcome = await ingestReportMail(services, [...new Set((session as Session).dmarcMonitors)], raw);
            log.info({ outcome, session: session.id }, 'smtp dmarc report received');
            // Nothing usable in it: a permanent answer, since sending it again cannot help.
            if (!outcome.stored && !outcome.duplicates) throw smtpError(554, `5.6.0 ${outcome.problems[0].replace(/[^\x20-\x7e]+/g, ' ').slice(0, 400)}`);
            return `${outcome.stored} DMARC report(s) stored`;
          }
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const result = await receiveInbound(services, { mailFrom, rcptTo: envelope, raw });
          if (!result.accepted) throw smtpError(result.code, result.message);
          return result.message;
        }, callback);
      });
    },
  });
  // Resets and failed TLS handshakes are routine on a public port: worth a line, not an alarm.
  server.on('error', (err) => log.info({ err }, 'smtp connection error'));

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(config.SMTP_PORT, config.HOST, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const bound = server.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : config.SMTP_PORT;
  log.info({ port }, 'smtp listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
