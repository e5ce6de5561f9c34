import { Dmarc, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from '../sdk/sdk.js';
import { gz, monitoredDomain, reportXml, upload, zip } from './reports-support.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
});
afterAll(async () => {
  await s?.close();
});

describe('ms.dmarc', () => {
  it('create, list, update and delete', async () => {
    const domain = await seedDomain(s);
    s.dns.add(`_dmarc.${domain.name}`, { type: 'TXT', data: 'v=DMARC1; p=reject; rua=mailto:r@x.test' });
    const created = await ms.dmarc.create(new Dmarc(domain.id));
    expect(created.statusCode).toBe(201);
    const d = created.body.data;
    expect(d).toMatchObject({ dmarc_valid: true, spf_status: 'not_found', domain: { id: domain.id, name: domain.name } });
    expect(d.dmarc_record_checked_at).toMatch(ISO);

    const list = await ms.dmarc.list({ query: domain.name, sort_by: 'dmarc_valid', order: 'asc', limit: 5, page: 1 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data.map((m: any) => m.id)).toEqual([d.id]);

    const updated = await ms.dmarc.update(d.id, { wanted_dmarc_record: 'v=DMARC1; p=quarantine; adkim=s' });
    expect(updated.statusCode).toBe(200);
    expect(updated.body.data.wanted_dmarc_record).toBe('v=DMARC1; p=quarantine; adkim=s');

    const bad = await failure(ms.dmarc.update(d.id, { wanted_dmarc_record: 'v=DMARC1; p=none; zz=1' }));
    expect(bad).toEqual({
      status: 422,
      body: { message: INVALID, errors: { wanted_dmarc_record: ['The wanted dmarc record is not a valid DMARC record: unknown tag "zz".'] } },
    });
    expect(await failure(other.dmarc.delete(d.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect((await ms.dmarc.delete(d.id)).statusCode).toBe(204);
    expect(await failure(ms.dmarc.delete(UNKNOWN_ID))).toEqual({ status: 404, body: NOT_FOUND });
  });
});

describe('ms.dmarc reports', () => {
  it('report, reportByIp, reportSources, addFavorite and removeFavorite', async () => {
    const { monitor, domain } = await monitoredDomain(s);
    expect((await upload(s, monitor.id, gz(reportXml('google', domain.name)))).status).toBe(201);
    expect((await upload(s, monitor.id, zip({ 'r.xml': reportXml('outlook', domain.name) }))).status).toBe(201);

    const report = await ms.dmarc.report(monitor.id, { date_from: '2026-11-01', date_to: '2026-11-02', limit: 2, page: 1 });
    expect(report.statusCode).toBe(200);
    expect(report.body.data.map((r: any) => [r.ip_address, r.total_volume, r.passed_spf])).toEqual([
      ['192.0.2.10', 6, '66.67%'],
      ['198.51.100.7', 5, '0%'],
    ]);
    const filtered = await ms.dmarc.report(monitor.id, { report_source: 'Outlook.com', category: 'non_compliant', search: '8.8' });
    expect(filtered.body.data.map((r: any) => r.ip_address)).toEqual(['8.8.4.4']);

    const byIp = await ms.dmarc.reportByIp(monitor.id, '192.0.2.10', { report_source: 'google.com' });
    expect(byIp.statusCode).toBe(200);
    expect(byIp.body.data.map((r: any) => r.passed_spf)).toEqual(['100%', '0%']);

    const sources = await ms.dmarc.reportSources(monitor.id, { date_from: '2026-11-01', date_to: '2026-11-03', status: 'quarantined' });
    expect(sources.body.data).toEqual([{ report_source: 'google.com', reports: 1 }]);
    expect(await failure(ms.dmarc.reportSources(monitor.id, { date_from: '2026-11-03', date_to: '2026-11-01' }))).toMatchObject({ status: 422 });

    const fav = await ms.dmarc.addFavorite(monitor.id, '198.51.100.7');
    expect(fav.statusCode).toBe(200);
    expect(fav.body).toEqual({});
    expect((await ms.dmarc.report(monitor.id)).body.data[0]).toMatchObject({ ip_address: '198.51.100.7', is_favorite: true });
    expect((await ms.dmarc.removeFavorite(monitor.id, '198.51.100.7')).statusCode).toBe(204);
    expect(await failure(ms.dmarc.removeFavorite(monitor.id, '198.51.100.7'))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(other.dmarc.report(monitor.id))).toEqual({ status: 404, body: NOT_FOUND });
  });
});
