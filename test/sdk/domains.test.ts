import type { MailerSend } from 'mailersend';
import { createAccount, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, resolvableName, sdkDomain, sdkFor, UNKNOWN_ID } from './sdk.js';

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

const SETTINGS_KEYS = [
  'custom_tracking_enabled', 'custom_tracking_subdomain', 'ignore_duplicated_recipients', 'precedence_bulk',
  'send_paused', 'track_clicks', 'track_content', 'track_opens', 'track_unsubscribe', 'track_unsubscribe_html',
  'track_unsubscribe_plain',
];

/** Publishes every record the SDK's dns() call asks for, so verify() succeeds. */
async function publish(id: string) {
  const r = (await ms.email.domain.dns(id)).body.data;
  s.dns.add(r.spf.hostname, { type: 'TXT', data: r.spf.value });
  s.dns.add(r.dkim.hostname, { type: 'TXT', data: r.dkim.value });
  s.dns.add(r.return_path.hostname, { type: 'CNAME', domain: r.return_path.value });
  s.dns.add(r.custom_tracking.hostname, { type: 'CNAME', domain: r.custom_tracking.value });
  s.dns.add(r.inbound_routing.hostname, { type: 'MX', exchange: r.inbound_routing.value, priority: 10 });
}

describe('ms.email.domain', () => {
  it('create answers 201 in the creation shape', async () => {
    const name = resolvableName(s);
    const res = await ms.email.domain.create({ name, return_path_subdomain: 'bounces' });
    expect(res.statusCode).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({ name, is_verified: false, can: { manage: true }, totals: [] });
    expect(d.domain_settings).toMatchObject({ return_path_subdomain: 'bounces', send_paused: false });
    for (const k of ['track_unsubscribe_html_enabled', 'track_unsubscribe_plain_enabled', 'inbound_routing_enabled']) {
      expect(typeof d.domain_settings[k]).toBe('boolean');
    }
  });

  it('list filters by verified and pages with links and meta', async () => {
    const mine: string[] = [];
    for (let i = 0; i < 11; i++) mine.push((await sdkDomain(s, ms)).id);
    await publish(mine[0]!);
    expect((await ms.email.domain.verify(mine[0]!)).body.data.dkim).toBe(true);

    const page2 = await ms.email.domain.list({ page: 2, limit: 10 });
    expect(page2.statusCode).toBe(200);
    const { links, meta, data } = page2.body;
    expect(meta).toMatchObject({ current_page: 2, per_page: 10, from: 11 });
    expect(meta.total).toBeGreaterThanOrEqual(11);
    expect(meta.last_page).toBe(Math.ceil(meta.total / 10));
    // Built from the public URL, not the address the client dialled.
    expect(meta.path).toMatch(/^https?:\/\/[^/?]+\/v1\/domains$/);
    expect(links.first).toMatch(/\/v1\/domains\?.*page=1/);
    expect(links.prev).toMatch(/[?&]page=1(&|$)/);
    expect(links.next === null).toBe(meta.last_page === 2);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    for (const d of data) {
      expect(d.created_at).toMatch(PLAIN);
      expect(Object.keys(d.domain_settings).sort()).toEqual(SETTINGS_KEYS);
    }

    const verified = await ms.email.domain.list({ verified: true, limit: 100 });
    expect(verified.body.data.map((d: { id: string }) => d.id)).toContain(mine[0]);
    expect(verified.body.data.every((d: { is_verified: boolean }) => d.is_verified)).toBe(true);
    const unverified = await ms.email.domain.list({ verified: false, limit: 100 });
    const ids = unverified.body.data.map((d: { id: string }) => d.id);
    expect(ids).not.toContain(mine[0]);
    expect(ids).toContain(mine[1]);
  });

  it('single answers the domain with mx and plain timestamps', async () => {
    const d = await sdkDomain(s, ms);
    const res = await ms.email.domain.single(d.id);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, name: d.name, mx: null, is_verified: false });
    expect(res.body.data.created_at).toMatch(PLAIN);
    expect(res.body.data.updated_at).toMatch(PLAIN);
  });

  it('updateSettings changes a subset of the settings', async () => {
    const d = await sdkDomain(s, ms);
    const res = await ms.email.domain.updateSettings(d.id, {
      send_paused: true,
      track_opens: false,
      track_unsubscribe_plain: 'Leave: {{unsubscribe}}',
      custom_tracking_subdomain: 'go',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.domain_settings).toMatchObject({
      send_paused: true, track_opens: false, track_clicks: true, track_unsubscribe_plain: 'Leave: {{unsubscribe}}', custom_tracking_subdomain: 'go',
    });
    expect((await ms.email.domain.single(d.id)).body.data.domain_settings.send_paused).toBe(true);
  });

  it('updateSettings takes every field of the SDK\'s DomainSettings type', async () => {
    const d = await sdkDomain(s, ms);
    const settings = {
      send_paused: false,
      track_clicks: false,
      track_opens: true,
      track_unsubscribe: true,
      track_unsubscribe_html: '<a href="{{unsubscribe}}">Leave</a>',
      track_unsubscribe_plain: 'Leave: {{unsubscribe}}',
      track_unsubscribe_html_enabled: false,
      track_unsubscribe_plain_enabled: true,
      track_content: true,
      custom_tracking_enabled: true,
      custom_tracking_subdomain: 'trk',
      precedence_bulk: true,
      ignore_duplicated_recipients: true,
    };
    const res = await ms.email.domain.updateSettings(d.id, settings);
    expect(res.statusCode).toBe(200);
    const { track_unsubscribe_html_enabled: _h, track_unsubscribe_plain_enabled: _p, ...shown } = settings;
    expect(res.body.data.domain_settings).toEqual(shown);
  });

  it('dns answers the records to publish', async () => {
    const d = await sdkDomain(s, ms);
    const res = await ms.email.domain.dns(d.id);
    expect(res.statusCode).toBe(200);
    const r = res.body.data;
    expect(Object.keys(r).sort()).toEqual(['custom_tracking', 'dkim', 'id', 'inbound_routing', 'return_path', 'spf']);
    for (const k of ['spf', 'dkim', 'return_path', 'custom_tracking']) {
      expect(Object.keys(r[k]).sort()).toEqual(['hostname', 'type', 'value']);
    }
    expect(Object.keys(r.inbound_routing).sort()).toEqual(['hostname', 'priority', 'type', 'value']);
    expect(r.spf.type).toBe('TXT');
  });

  it('verify runs the DNS checks', async () => {
    const d = await sdkDomain(s, ms);
    const before = await ms.email.domain.verify(d.id);
    expect(before.statusCode).toBe(200);
    expect(before.body.message).toEqual(expect.any(String));
    expect(before.body.data).toEqual({ dkim: false, spf: false, mx: false, tracking: false, cname: false, rp_cname: false });
    await publish(d.id);
    const after = await ms.email.domain.verify(d.id);
    expect(after.body.data).toEqual({ dkim: true, spf: true, mx: true, tracking: true, cname: true, rp_cname: true });
    expect((await ms.email.domain.single(d.id)).body.data.is_verified).toBe(true);
  });

  it('recipients answers a paged (empty) list', async () => {
    const d = await sdkDomain(s, ms);
    const res = await ms.email.domain.recipients(d.id, { page: 1, limit: 10 });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 0 });
    expect(res.body.links).toEqual(expect.objectContaining({ first: expect.any(String) }));
  });

  it('delete answers 204; the domain is gone', async () => {
    const d = await sdkDomain(s, ms);
    const res = await ms.email.domain.delete(d.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(ms.email.domain.single(d.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('404 for an unknown id on every call', async () => {
    const dm = ms.email.domain;
    for (const call of [
      () => dm.single(UNKNOWN_ID),
      () => dm.updateSettings(UNKNOWN_ID, { send_paused: true }),
      () => dm.dns(UNKNOWN_ID),
      () => dm.verify(UNKNOWN_ID),
      () => dm.recipients(UNKNOWN_ID),
      () => dm.delete(UNKNOWN_ID),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const unresolvable = await failure(ms.email.domain.create({ name: 'never-added.example.com' }));
    expect(unresolvable.status).toBe(422);
    expect(unresolvable.body.message).toBe(INVALID);
    expect(Object.keys(unresolvable.body.errors)).toEqual(['name']);

    const d = await sdkDomain(s, ms);
    const html = await failure(ms.email.domain.updateSettings(d.id, { track_unsubscribe_html: '<p>bye</p>' }));
    expect(html).toEqual({
      status: 422,
      body: { message: INVALID, errors: { track_unsubscribe_html: ['The track unsubscribe html must contain the {{unsubscribe}} placeholder.'] } },
    });
    const paging = await failure(ms.email.domain.list({ limit: 500 }));
    expect(paging.status).toBe(422);
    expect(Object.keys(paging.body.errors)).toEqual(['limit']);
  });

  it('another account sees none of these domains', async () => {
    const d = await sdkDomain(s, ms);
    const dm = other.email.domain;
    for (const call of [
      () => dm.single(d.id),
      () => dm.updateSettings(d.id, { send_paused: true }),
      () => dm.dns(d.id),
      () => dm.verify(d.id),
      () => dm.recipients(d.id),
      () => dm.delete(d.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const theirs = await dm.list({ limit: 100 });
    expect(theirs.body.data.map((x: { id: string }) => x.id)).not.toContain(d.id);
    expect((await ms.email.domain.single(d.id)).body.data.domain_settings.send_paused).toBe(false);
  });
});
