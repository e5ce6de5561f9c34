import { Dmarc, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from '../sdk/sdk.js';

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
