import { z } from 'zod';
import { bool } from './values.js';

/** The SMTP listener and untrusted input (docs/configuration.md). */
export const smtpSettings = {
  SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525).describe('Port of the SMTP listener (smtp role).'),
  SMTP_PUBLIC_HOST: z.string().default('localhost').describe('SMTP server name shown on SMTP users.'),
  SMTP_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional().meta({ description: 'SMTP port shown on SMTP users.', defaultText: '`SMTP_PORT`' }),
  SMTP_TLS_CERT: z
    .string()
    .optional()
    .describe('PEM certificate (chain) file for STARTTLS, set with `SMTP_TLS_KEY`. Unset, a self-signed one is generated at the first start into `DATA_DIR/smtp-tls/` and reused.'),
  SMTP_TLS_KEY: z.string().optional().describe('PEM private key file matching `SMTP_TLS_CERT`.'),
  FEEDBACK_ADDRESS: z
    .email()
    .optional()
    .describe('Address feedback loops send ARF complaints to, received without login by the smtp role (reports sent to a return path work without it).'),
  SMTP_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(40 * 1024 * 1024)
    .describe('Largest message a logged-in SMTP user may relay (advertised as SIZE; bigger ones get 552), and the decoded bytes its parse may hold.'),
  SMTP_MAX_REPORT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024)
    .describe('Largest DSN bounce or ARF complaint accepted without login (bigger: `552 5.3.4`); never more than `SMTP_MAX_MESSAGE_BYTES` or `SMTP_UNAUTHENTICATED_BUFFER_BYTES`. What makes a report big is the returned original, which MTAs usually cut short.'),
  SMTP_MAX_DMARC_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(4 * 1024 * 1024)
    .describe('Largest DMARC aggregate report mail accepted without login (it holds zipped reports that unpack to at most `DMARC_MAX_REPORT_BYTES`).'),
  SMTP_MAX_INBOUND_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(36 * 1024 * 1024)
    .describe('Largest inbound-route mail accepted without login: one 25 MB attachment, base64-encoded, fits.'),
  DMARC_MAX_REPORT_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(10 * 1024 * 1024)
    .describe('XML the DMARC reports of one upload or one mail may unpack to, all together (zip, gzip or plain); past it 422 (`552`/`554` over SMTP). Aggregate reports are kilobytes to a few MB of XML.'),
  INBOUND_MAX_MIME_PARTS: z.coerce
    .number()
    .int()
    .min(2)
    .max(1000)
    .default(250)
    .describe('MIME parts (containers included) of one inbound message, counted while it is parsed; more: `554 5.6.0` and nothing is stored.'),
  INBOUND_MAX_ATTACHMENTS: z.coerce.number().int().min(1).default(100).describe('Attachments of one inbound message; more: `554 5.6.0`.'),
  INBOUND_MAX_DECODED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(36 * 1024 * 1024)
    .describe('Decoded bytes of all parts of one inbound message together; more: `552 5.3.4`.'),
  UNTRUSTED_PARSE_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(1)
    .describe('Worker threads per kind of untrusted input parsed off the event loop (DMARC report files; inbound, relayed, bounce and DMARC report mail; JSON request bodies over 256 KB).'),
  UNTRUSTED_PARSE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(20_000)
    .describe('Hard time limit of one parse of untrusted input; past it the thread is terminated and the input refused.'),
  SMTP_UNAUTHENTICATED_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024)
    .describe('Bytes the messages of all SMTP sessions without login may hold at once; a message that finds no room gets `452 4.3.1` and is sent again later.'),
  SMTP_MAX_CLIENTS: z.coerce.number().int().min(1).default(200).describe('Open SMTP connections at most; one more is greeted with 421 and closed.'),
  SMTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('Open SMTP connections at most from one remote address; one more is greeted with `421 4.7.0`.'),
  SMTP_ALLOW_INSECURE_AUTH_LOOPBACK: bool
    .default(false)
    .describe('`true` lets clients on loopback log in without STARTTLS; everyone else always needs STARTTLS first.'),
};
