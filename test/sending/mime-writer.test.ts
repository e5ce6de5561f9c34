import nodemailer, { type SendMailOptions } from 'nodemailer';
import type MimeNode from 'nodemailer/lib/mime-node/index.js';
import StreamTransport from 'nodemailer/lib/stream-transport/index.js';
import { writeMime } from '../../src/engines/delivery/mime.writer.js';

/**
 * mime.writer.ts writes nodemailer's composed tree at once instead of through its stream
 * transport. Both write the same tree here (same boundaries, same Date), so their bytes must be
 * the same, whatever the message holds: encoded headers, quoted-printable and base64 parts, long
 * and whitespace-ended lines, every kind of line end, content past the encoders' 64 KiB slices,
 * attachments inline and not.
 */
function bothWays(mail: SendMailOptions): Promise<{ streamed: Buffer; written: Buffer }> {
  return new Promise((resolve, reject) => {
    const streams = new StreamTransport({ buffer: true, newline: 'windows' });
    const transport = nodemailer.createTransport({
      name: 'both-ways',
      version: '1',
      send(m: { message: MimeNode }, done: (err: Error | null, info: object) => void) {
        streams.send(m as never, (err, info) => {
          if (err) return reject(err);
          try {
            resolve({ streamed: info!.message as Buffer, written: writeMime(m.message) });
          } catch (e) {
            reject(e);
          }
          done(null, {});
        });
      },
    });
    transport.sendMail(mail).catch(reject);
  });
}

const base = { from: { name: 'Shop', address: 'shop@example.com' }, to: { name: 'Reader', address: 'reader@example.net' }, messageId: '<m1@example.com>' };
const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
const longLine = 'word '.repeat(60);
const big = Array.from({ length: 2000 }, (_, i) => `Line ${i}: ${'é'.repeat(i % 50)} end   \n`).join('');

const cases: [string, SendMailOptions][] = [
  ['plain ASCII text', { subject: 'Hi', text: 'Hello there' }],
  ['text and html', { subject: 'Your receipt', text: 'Hello, here is your receipt', html: '<p>Hello, <a href="https://example.com/r">receipt</a></p>' }],
  ['html only, non-ASCII', { subject: 'Grüße aus Köln — ✓', html: '<p>Straße, naïve café, 日本語</p>' }],
  ['long lines and trailing whitespace', { subject: 'x'.repeat(200), text: `${longLine}\n  trailing   \n\ttab\t`, html: `<p>${longLine}</p>   ` }],
  ['LF, CRLF and lone CR line ends', { subject: 'ends', text: 'a\nb\r\nc\rd\n\n', html: '<p>a</p>\n<p>b</p>\r\n' }],
  ['content past 64 KiB, mixed', { subject: 'big', text: big, html: `<pre>${big}</pre>` }],
  [
    'attachments: binary, text and inline',
    {
      subject: 'files',
      text: 'see attached',
      html: '<p><img src="cid:logo@example.com"></p>',
      attachments: [
        { filename: 'data.bin', content: binary, contentDisposition: 'attachment' },
        { filename: 'notes.txt', content: Buffer.from('one\ntwo\r\nthree\rfour  \n'), contentDisposition: 'attachment' },
        { filename: 'logo.png', content: binary.subarray(0, 700), contentDisposition: 'inline', cid: 'logo@example.com' },
        { filename: 'Überweisung März.pdf', content: Buffer.alloc(0), contentDisposition: 'attachment' },
        // Quoted-printable outside text: a lone CR or LF is data there.
        { filename: 'raw.dat', content: Buffer.from('a\rb\nc\r\nd  '), contentType: 'application/octet-stream', contentTransferEncoding: 'quoted-printable' },
      ],
    },
  ],
  [
    'every header a send can have',
    {
      subject: 'headers',
      text: 'x',
      cc: [{ name: 'Zoë Ünal', address: 'zoe@example.org' }, 'plain@example.org'],
      replyTo: { name: 'Support, Team', address: 'support@example.com' },
      inReplyTo: '<earlier@example.com>',
      references: ['<a@example.com>', '<b@example.com>'],
      headers: { 'X-Campaign': 'Herbst — 2026', 'List-Unsubscribe': '<https://example.com/u/1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', Precedence: 'bulk' },
    },
  ],
  ['empty text', { subject: '', text: '' }],
];

describe('writing a composed message at once', () => {
  it.each(cases)('gives the bytes of nodemailer’s stream transport: %s', async (_name, mail) => {
    const { streamed, written } = await bothWays({ ...base, ...mail });
    expect(written.toString('latin1')).toBe(streamed.toString('latin1'));
    expect(written.equals(streamed)).toBe(true);
  });

  it('refuses content that is not in memory rather than write it wrong', async () => {
    const { Readable } = await import('node:stream');
    await expect(bothWays({ ...base, subject: 's', text: Readable.from(['streamed']) })).rejects.toThrow(/not in memory/);
  });
});
