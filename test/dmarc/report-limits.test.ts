import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import nodemailer from 'nodemailer';
import { startTestServer, type TestServer } from '../support/server.js';
import { slowestHealthDuring } from '../support/loop-watch.js';
import { deflatedZeros, gzippedZeros, rawZip, zipOfZeros } from './bombs.js';
import { gz, monitoredDomain, reportXml, upload } from './reports-support.js';

/**
 * Report files and report mail from anyone are judged before they are expanded: a zip's
 * directory before any entry inflates, a gzip's inflation against its size, records before the
 * XML is parsed, and all of it off the event loop. Each refusal is a 422 on the upload (a 554
 * over SMTP) naming the reason, and GET /health keeps answering meanwhile; without those checks
 * the same files held the loop for seconds and inflated hundreds of MB.
 */
let s: TestServer;
let port: number;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', DMARC_REPORT_DOMAIN: 'reports.postbox.test' } });
  port = s.app.smtpPort!;
}, 60_000);
afterAll(() => s?.close());

const MB = 1024 * 1024;
/** Far below the seconds the unchecked bombs held the loop, far above a busy machine's jitter. */
const HELD_MS = 1000;

const mailReport = (to: string, attachments: { filename: string; content: Buffer; contentType: string }[]) =>
  nodemailer
    .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
    .sendMail({ from: 'noreply-dmarc-support@google.com', to, subject: 'Report', text: 'An aggregate report.', attachments })
    .catch((e: { responseCode: number; response: string }) => e);

const rowsOf = async (monitorId: string) => (await s.rest('GET', `/dmarc-monitoring/${monitorId}/report`)).body.data;

/** A report of `n` records that differ only by source IP, each a few hundred bytes as real reporters write them. */
function reportOf(domain: string, n: number): string {
  const record = (i: number) =>
    `<record><row><source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip><count>1</count>` +
    '<policy_evaluated><disposition>none</disposition><dkim>pass</dkim><spf>pass</spf></policy_evaluated></row>' +
    `<identifiers><header_from>${domain}</header_from></identifiers><auth_results><dkim><domain>${domain}</domain><result>pass</result></dkim>` +
    `<spf><domain>${domain}</domain><result>pass</result></spf></auth_results></record>\n`;
  const head =
    '<?xml version="1.0"?><feedback><report_metadata><org_name>big.example</org_name><report_id>r1</report_id>' +
    `<date_range><begin>1793491200</begin><end>1793577599</end></date_range></report_metadata><policy_published><domain>${domain}</domain></policy_published>\n`;
  return head + Array.from({ length: n }, (_, i) => record(i)).join('') + '</feedback>';
}

describe('zip archives', () => {
  it('refuses the zip of 20 entries of 25 MB zeros from its directory, without inflating any, over /v1 and GraphQL', async () => {
    const { monitor } = await monitoredDomain(s);
    const bomb = zipOfZeros(20, 25 * MB);
    expect(bomb.length).toBeLessThan(MB);
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, upload(s, monitor.id, bomb));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ report: ['The zip archive holds 20 files; a report archive holds one XML file.'] });
    expect(slowestMs).toBeLessThan(HELD_MS);

    const gql = await s.gql('mutation($id: ID!, $r: String!) { upload_dmarc_report(monitor_id: $id, report: $r) { id } }', {
      id: monitor.id,
      r: bomb.toString('base64'),
    });
    expect(gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors[0].extensions.errors.report[0]).toMatch(/holds 20 files/);
    expect(await rowsOf(monitor.id)).toEqual([]);
  });

  it('refuses several XML entries, and an entry declaring more than a report may unpack to, before inflating', async () => {
    const { monitor } = await monitoredDomain(s);
    const several = await slowestHealthDuring(s.url, upload(s, monitor.id, zipOfZeros(12, 25 * MB)));
    expect(several.result.body.errors.report).toEqual(['The zip archive holds more than one XML file.']);
    expect(several.slowestMs).toBeLessThan(HELD_MS);
    // Declared past DMARC_MAX_REPORT_BYTES (its stream, never read, is no XML at all).
    const big = rawZip([{ name: 'r.xml', deflated: deflateRawSync(randomBytes(200_000)), size: 11 * MB }]);
    expect((await upload(s, monitor.id, big)).body.errors.report).toEqual([`The report unpacks to more than ${10 * MB} bytes.`]);
  });

  it('stops inflating an entry at the size it declares when the stream holds more (a lying entry)', async () => {
    const { monitor } = await monitoredDomain(s);
    // Declares 4 KB; its stream holds 64 MB of zeros.
    const liar = rawZip([{ name: 'r.xml', deflated: deflatedZeros(64 * MB), size: 4096 }]);
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, upload(s, monitor.id, liar));
    expect(res.status).toBe(422);
    expect(res.body.errors.report).toEqual(['The zip entry inflates past the size it declares.']);
    expect(slowestMs).toBeLessThan(HELD_MS);
  });

  it('refuses the same zip bomb mailed to a report address with 554 5.6.0, and keeps answering meanwhile', async () => {
    const { monitor, address } = await monitoredDomain(s);
    const sent = mailReport(address, [{ filename: 'report.zip', content: zipOfZeros(20, 25 * MB), contentType: 'application/zip' }]);
    const { result: err, slowestMs } = await slowestHealthDuring(s.url, sent);
    expect(err.responseCode).toBe(554);
    expect(err.response).toMatch(/^554 5\.6\.0 The zip archive holds 20 files/);
    expect(slowestMs).toBeLessThan(HELD_MS);
    expect(await rowsOf(monitor.id)).toEqual([]);
  });
});

describe('gzip', () => {
  it('refuses a gzip bomb by its expansion ratio, uploaded or mailed', async () => {
    const { monitor, address } = await monitoredDomain(s);
    // 9 MB of zeros: within the size a report may have, but 1,000 times its compressed size.
    const bomb = gzippedZeros(9 * MB);
    const res = await upload(s, monitor.id, bomb);
    expect(res.status).toBe(422);
    expect(res.body.errors.report).toEqual(['The report inflates more than 250 times its compressed size, which no report does.']);
    const err = await mailReport(address, [{ filename: 'r.xml.gz', content: bomb, contentType: 'application/gzip' }]);
    expect(err.responseCode).toBe(554);
    expect(err.response).toMatch(/^554 5\.6\.0 The report inflates more than 250 times/);
    expect(await rowsOf(monitor.id)).toEqual([]);
  });

  it('takes a report of 15,000 records that differ only by IP (it packs 115 times), and stores it without holding the event loop', async () => {
    const { monitor, domain } = await monitoredDomain(s);
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, upload(s, monitor.id, gz(reportOf(domain.name, 15_000))));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ records: 15_000, total_volume: 15_000 });
    expect(slowestMs).toBeLessThan(HELD_MS);
    const rows = await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report?limit=100`);
    expect(rows.body.data).toHaveLength(100);
  });
});

describe('what one report or mail may hold', () => {
  it('refuses a report of more than 20,000 records before parsing it', async () => {
    const { monitor, domain } = await monitoredDomain(s);
    const res = await upload(s, monitor.id, gz(reportOf(domain.name, 20_001)));
    expect(res.status).toBe(422);
    expect(res.body.errors.report).toEqual(['The report holds more than 20000 records.']);
  });

  it('refuses an uploaded file larger than the XML a report may unpack to, before decoding or reading it', async () => {
    const { monitor } = await monitoredDomain(s);
    const res = await upload(s, monitor.id, `<feedback>${' '.repeat(11 * MB)}</feedback>`);
    expect(res.status).toBe(422);
    expect(res.body.errors.report).toEqual([`The report file is larger than ${10 * MB} bytes.`]);
  });

  it('refuses a mail of more than five report files, one of too many attachments, and one of too many MIME parts', async () => {
    const { monitor, domain, address } = await monitoredDomain(s);
    const report = (i: number) => ({ filename: `r${i}.xml.gz`, content: gz(reportXml('google', domain.name)), contentType: 'application/gzip' });
    const six = await mailReport(address, [0, 1, 2, 3, 4, 5].map(report));
    expect(six.responseCode).toBe(554);
    expect(six.response).toMatch(/holds 6 report files; at most 5/);
    const nine = await mailReport(address, Array.from({ length: 9 }, (_, i) => ({ filename: `n${i}.txt`, content: Buffer.from('x'), contentType: 'text/plain' })));
    expect(nine.response).toBe('554 5.6.0 The message has more than 8 attachments.');
    // Inline text parts: no attachments, so only the part count stops them.
    const parts = Array.from({ length: 40 }, (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\nline ${i}\r\n`).join('');
    const raw = `From: a@reporter.example\r\nTo: ${address}\r\nSubject: Report\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`;
    const many = await nodemailer
      .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: 'a@reporter.example', to: [address] }, raw })
      .catch((e: { responseCode: number; response: string }) => e);
    expect(many.response).toBe('554 5.6.0 The message has more than 32 MIME parts.');
    expect(await rowsOf(monitor.id)).toEqual([]);
  });
});
