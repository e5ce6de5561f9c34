import { attachmentSupported, checkAttachments, MAX_INBOUND_ATTACHMENT_BYTES } from '../../src/engines/inbound/inbound.attachments.js';
import { catches, compare, headerMap, matches, type StoredFilter } from '../../src/modules/inbound/inbound.match.js';

const headers = headerMap([
  { key: 'list-id', line: 'List-Id: Announcements <news.example.org>' },
  { key: 'x-tag', line: 'X-Tag: alpha' },
  { key: 'x-tag', line: 'X-Tag:\r\n beta' },
]);
const subject = { sender: 'alice@mail.example.org', headers };

describe('compare', () => {
  it.each([
    ['equal', 'Support', true],
    ['equal', 'supp', false],
    ['not-equal', 'sales', true],
    ['not-equal', 'support', false],
    ['contains', 'PPO', true],
    ['not-contains', 'ppo', false],
    ['starts-with', 'sup', true],
    ['not-starts-with', 'sup', false],
    ['ends-with', 'ort', true],
    ['not-ends-with', 'ort', false],
  ])('%s %s on "support" → %s (case-insensitive)', (comparer, value, expected) => {
    expect(compare(comparer, ['support'], value)).toBe(expected);
  });

  it('holds for a positive comparer when some value does, for a negated one when none does', () => {
    expect(compare('equal', ['a', 'b'], 'b')).toBe(true);
    expect(compare('not-equal', ['a', 'b'], 'b')).toBe(false);
    expect(compare('not-contains', [], 'x')).toBe(true);
    expect(compare('contains', [], 'x')).toBe(false);
    expect(compare('unknown', ['x'], 'x')).toBe(false);
  });
});

describe('catch filter', () => {
  const f = (filters: StoredFilter['filters'], mode?: 'all' | 'one'): StoredFilter => ({ type: 'catch_recipient', mode, filters });

  it('catch_all takes every recipient', () => {
    expect(catches({ type: 'catch_all', filters: [] }, 'anyone@in.example.com')).toBe(true);
  });

  it('compares the local part, or the whole address when the value holds an @', () => {
    expect(catches(f([{ comparer: 'equal', value: 'support' }]), 'support@in.example.com')).toBe(true);
    expect(catches(f([{ comparer: 'equal', value: 'support' }]), 'sales@in.example.com')).toBe(false);
    expect(catches(f([{ comparer: 'equal', value: 'Support@In.Example.com' }]), 'support@in.example.com')).toBe(true);
    expect(catches(f([{ comparer: 'ends-with', value: '@other.example.com' }]), 'support@in.example.com')).toBe(false);
  });

  it('needs every rule by default, one rule with mode one', () => {
    const rules = [
      { comparer: 'starts-with', value: 'sup' },
      { comparer: 'ends-with', value: 'xyz' },
    ];
    expect(catches(f(rules), 'support@in.example.com')).toBe(false);
    expect(catches(f(rules, 'all'), 'support@in.example.com')).toBe(false);
    expect(catches(f(rules, 'one'), 'support@in.example.com')).toBe(true);
  });
});

describe('match filter', () => {
  it('match_all takes every message', () => {
    expect(matches({ type: 'match_all', filters: [] }, subject)).toBe(true);
  });

  it('match_sender compares the sender address', () => {
    expect(matches({ type: 'match_sender', filters: [{ comparer: 'equal', value: 'ALICE@mail.example.org' }] }, subject)).toBe(true);
    expect(matches({ type: 'match_sender', filters: [{ comparer: 'starts-with', value: 'bob@' }] }, subject)).toBe(false);
  });

  it('match_domain compares the sender domain', () => {
    expect(matches({ type: 'match_domain', filters: [{ comparer: 'ends-with', value: 'example.org' }] }, subject)).toBe(true);
    expect(matches({ type: 'match_domain', filters: [{ comparer: 'equal', value: 'example.org' }] }, subject)).toBe(false);
    expect(matches({ type: 'match_domain', filters: [{ comparer: 'not-equal', value: 'spam.test' }] }, subject)).toBe(true);
  });

  it('match_header compares the named header, every occurrence, unfolded', () => {
    const h = (comparer: string, value: string, key = 'X-Tag'): StoredFilter => ({ type: 'match_header', filters: [{ comparer, value, key }] });
    expect(matches(h('equal', 'beta'), subject)).toBe(true);
    expect(matches(h('equal', 'gamma'), subject)).toBe(false);
    expect(matches(h('not-equal', 'alpha'), subject)).toBe(false);
    expect(matches(h('contains', 'news.example.org', 'list-id'), subject)).toBe(true);
    expect(matches(h('equal', 'x', 'X-Missing'), subject)).toBe(false);
    expect(matches(h('not-contains', 'x', 'X-Missing'), subject)).toBe(true);
  });

  it('combines rules with all (default) or one', () => {
    const rules = [
      { comparer: 'equal', value: 'alpha', key: 'x-tag' },
      { comparer: 'equal', value: 'zzz', key: 'x-tag' },
    ];
    expect(matches({ type: 'match_header', filters: rules }, subject)).toBe(false);
    expect(matches({ type: 'match_header', mode: 'one', filters: rules }, subject)).toBe(true);
  });
});

describe('attachments', () => {
  it('accepts the sending API\'s file types by MIME type', () => {
    for (const t of ['application/pdf', 'image/png', 'text/csv', 'application/zip', 'message/rfc822', 'text/calendar']) {
      expect(attachmentSupported({ contentType: t, size: 1 })).toBe(true);
    }
  });

  it('decides a generic octet-stream by the file extension', () => {
    expect(attachmentSupported({ contentType: 'application/octet-stream', filename: 'report.PDF', size: 1 })).toBe(true);
    expect(attachmentSupported({ contentType: 'application/octet-stream', filename: 'setup.exe', size: 1 })).toBe(false);
    expect(attachmentSupported({ contentType: 'application/octet-stream', size: 1 })).toBe(false);
  });

  it('refuses other types, listing each once, before looking at sizes', () => {
    expect(
      checkAttachments([
        { contentType: 'application/x-msdownload', filename: 'a.exe', size: 1 },
        { contentType: 'application/x-msdownload', filename: 'b.exe', size: 1 },
        { contentType: 'application/pdf', size: MAX_INBOUND_ATTACHMENT_BYTES + 1 },
      ]),
    ).toEqual({ ok: false, reason: 'unsupported_attachment_type', types: ['application/x-msdownload'] });
  });

  it('refuses an attachment over 25 MB decoded', () => {
    expect(MAX_INBOUND_ATTACHMENT_BYTES).toBe(25 * 1024 * 1024);
    expect(checkAttachments([{ contentType: 'application/pdf', size: MAX_INBOUND_ATTACHMENT_BYTES }])).toEqual({ ok: true });
    expect(checkAttachments([{ contentType: 'application/pdf', size: MAX_INBOUND_ATTACHMENT_BYTES + 1 }])).toEqual({
      ok: false,
      reason: 'attachment_size_exceeded',
    });
  });
});
