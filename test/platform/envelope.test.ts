import { pagedEnvelope, shape } from '../../rest-mapping/envelope.js';

const url = new URL('http://api.test/v1/activity/abc?date_from=1&page=2&limit=10');

describe('envelopes', () => {
  it('the full pager: seven meta keys and absolute links', () => {
    const out = pagedEnvelope(
      { data: [1, 2], meta: { current_page: 2, from: 11, last_page: 3, per_page: 10, to: 12, total: 22 } },
      url,
    );
    expect(out.links).toEqual({
      first: 'http://api.test/v1/activity/abc?date_from=1&page=1&limit=10',
      last: 'http://api.test/v1/activity/abc?date_from=1&page=3&limit=10',
      prev: 'http://api.test/v1/activity/abc?date_from=1&page=1&limit=10',
      next: 'http://api.test/v1/activity/abc?date_from=1&page=3&limit=10',
    });
    // COMPAT.md Pagers: every full pager also lists its pages in meta.links.
    const { links: pages, ...meta } = out.meta;
    expect(meta).toEqual({ current_page: 2, from: 11, last_page: 3, per_page: 10, to: 12, total: 22, path: 'http://api.test/v1/activity/abc' });
    expect(pages).toEqual([
      { url: out.links.prev, label: '&laquo; Previous', active: false },
      { url: out.links.first, label: '1', active: false },
      { url: 'http://api.test/v1/activity/abc?date_from=1&page=2&limit=10', label: '2', active: true },
      { url: out.links.last, label: '3', active: false },
      { url: out.links.next, label: 'Next &raquo;', active: false },
    ]);
  });

  it('the simple pager (activity, verification lists): no last page, links.last null, next while pages are full', () => {
    const full = pagedEnvelope({ data: Array(10).fill(0), meta: { current_page: 2, from: 11, per_page: 10, to: 20 } }, url);
    expect(full.links.last).toBeNull();
    expect(full.links.next).toBe('http://api.test/v1/activity/abc?date_from=1&page=3&limit=10');
    expect(Object.keys(full.meta).sort()).toEqual(['current_page', 'from', 'path', 'per_page', 'to']);
    const partial = pagedEnvelope({ data: [1], meta: { current_page: 3, from: 21, per_page: 10, to: 21 } }, url);
    expect(partial.links.next).toBeNull();
  });

  it('renames keys anywhere in the result, and 204 routes have no body', () => {
    const spec = { method: 'GET' as const, path: '/users', envelope: 'data' as const, rename: { two_fa: '2fa' } };
    expect(shape(spec, [{ id: 'u', two_fa: false, nested: { two_fa: true } }], url)).toEqual({
      data: [{ id: 'u', '2fa': false, nested: { '2fa': true } }],
    });
    expect(shape({ method: 'DELETE', path: '/x', envelope: 'none' }, true, url)).toBeUndefined();
  });
});
