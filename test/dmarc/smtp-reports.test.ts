import nodemailer from 'nodemailer';
import { startTestServer, type TestServer } from '../support/server.js';
import { gz, monitoredDomain, reportXml, zip } from './reports-support.js';

/**
 * Receivers mail aggregate reports to the address in the domain's rua tag (RFC 7489 7.2.1.1):
 * another mail server, no login, the report attached as .xml.gz or .zip.
 */
let s: TestServer;
let port: number;
beforeAll(async () => {
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', DMARC_REPORT_DOMAIN: 'reports.postbox.test' } });
  port = s.app.smtpPort!;
}, 60_000);
afterAll(() => s?.close());

const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });

function reportMail(to: string, attachments: { filename: string; content: Buffer | string; contentType: string }[], text = 'This is an aggregate report.') {
  return mx().sendMail({
    from: 'noreply-dmarc-support@google.com',
    to,
    subject: 'Report domain: example Submitter: google.com Report-ID: <10525435579337670012>',
    text,
    attachments,
  });
}

const ipsOf = async (monitorId: string) =>
  (await s.rest('GET', `/dmarc-monitoring/${monitorId}/report`)).body.data.map((r: any) => [r.ip_address, r.total_volume]);

it('stores a gzipped report mailed to the monitor address, with the figures an upload gives', async () => {
  const { monitor, domain, address } = await monitoredDomain(s);
  expect(address).toMatch(/^dmarc\+[a-z0-9]{16}@reports\.postbox\.test$/);
  const info = await reportMail(address, [
    { filename: `google.com!${domain.name}!1793491200!1793577599.xml.gz`, content: gz(reportXml('google', domain.name)), contentType: 'application/gzip' },
  ]);
  expect(info.response).toMatch(/^250 .*1 DMARC report\(s\) stored/);
  expect(await ipsOf(monitor.id)).toEqual([['198.51.100.7', 5], ['192.0.2.10', 4], ['2001:db8::25', 3]]);
  const [row] = (await s.rest('GET', `/dmarc-monitoring/${monitor.id}/report/192.0.2.10`)).body.data;
  expect(row).toMatchObject({ report_source: 'google.com', passed_dmarc: '100%' });
  // A reporter that sends the same report again: accepted, stored once.
  const again = await reportMail(address, [{ filename: 'r.xml.gz', content: gz(reportXml('google', domain.name)), contentType: 'application/gzip' }]);
  expect(again.response).toMatch(/^250 .*0 DMARC report\(s\) stored/);
  expect(await ipsOf(monitor.id)).toEqual([['198.51.100.7', 5], ['192.0.2.10', 4], ['2001:db8::25', 3]]);
});

it('stores a zipped report, and one whose attachment type and name say nothing useful', async () => {
  const { monitor, domain, address } = await monitoredDomain(s);
  const zipped = zip({ [`outlook.com!${domain.name}!1793577600!1793663999.xml`]: reportXml('outlook', domain.name) });
  expect((await reportMail(address, [{ filename: 'report.zip', content: zipped, contentType: 'application/zip' }])).response).toMatch(/^250 /);
  expect(await ipsOf(monitor.id)).toEqual([['8.8.4.4', 4], ['192.0.2.10', 2]]);

  const second = await monitoredDomain(s);
  const plain = reportXml('google', second.domain.name);
  expect((await reportMail(second.address, [{ filename: 'attachment', content: plain, contentType: 'application/octet-stream' }])).response).toMatch(/^250 /);
  expect(await ipsOf(second.monitor.id)).toHaveLength(3);
});

it('one mail to two monitors stores the report for each whose domain it is about', async () => {
  const a = await monitoredDomain(s);
  const b = await monitoredDomain(s);
  const info = await mx().sendMail({
    envelope: { from: 'dmarc@reporter.example', to: [a.address, b.address] },
    raw: [
      'From: dmarc@reporter.example',
      `To: ${a.address}, ${b.address}`,
      'Subject: Report',
      'MIME-Version: 1.0',
      'Content-Type: application/gzip',
      'Content-Disposition: attachment; filename="report.xml.gz"',
      'Content-Transfer-Encoding: base64',
      '',
      gz(reportXml('google', a.domain.name)).toString('base64').replace(/.{76}/g, '$&\r\n'),
      '',
    ].join('\r\n'),
  });
  // A's report was stored; for B it is another domain's report, which is logged and skipped.
  expect(info.response).toMatch(/^250 .*1 DMARC report\(s\) stored/);
  expect(await ipsOf(a.monitor.id)).toHaveLength(3);
  expect(await ipsOf(b.monitor.id)).toEqual([]);
});

it('answers 554 for a mail with no report in it, or a report of another domain', async () => {
  const { monitor, address } = await monitoredDomain(s);
  const none = await reportMail(address, [], 'just text').catch((e) => e);
  expect(none.responseCode).toBe(554);
  expect(none.response).toMatch(/holds no DMARC aggregate report/);
  const foreign = await reportMail(address, [{ filename: 'r.xml', content: reportXml('google', 'elsewhere.example'), contentType: 'text/xml' }]).catch((e) => e);
  expect(foreign.responseCode).toBe(554);
  expect(foreign.response).toMatch(/about elsewhere\.example/);
  const broken = await reportMail(address, [{ filename: 'r.xml.gz', content: Buffer.from([0x1f, 0x8b, 1, 2, 3]), contentType: 'application/gzip' }]).catch((e) => e);
  expect(broken.responseCode).toBe(554);
  expect(await ipsOf(monitor.id)).toEqual([]);
});

it('refuses an address that is no monitor of this service, like any relay attempt', async () => {
  for (const to of ['dmarc+aaaaaaaaaaaaaaaa@reports.postbox.test', 'dmarc+x@reports.postbox.test']) {
    const err = await reportMail(to, [{ filename: 'r.xml', content: '<feedback/>', contentType: 'text/xml' }]).catch((e) => e);
    expect(err.responseCode).toBe(530);
  }
  // The right key at another domain is no report address either.
  const { address } = await monitoredDomain(s);
  const elsewhere = address.replace('@reports.postbox.test', '@other.example');
  expect((await reportMail(elsewhere, []).catch((e) => e)).responseCode).toBe(530);
});

it('a deleted monitor no longer takes reports', async () => {
  const { monitor, domain, address } = await monitoredDomain(s);
  expect((await s.rest('DELETE', `/dmarc-monitoring/${monitor.id}`)).status).toBe(204);
  const err = await reportMail(address, [{ filename: 'r.xml', content: reportXml('google', domain.name), contentType: 'text/xml' }]).catch((e) => e);
  expect(err.responseCode).toBe(530);
});
