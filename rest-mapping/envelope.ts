import type { RouteSpec } from './types.js';

/** Renames keys anywhere in a result (`two_fa` → `2fa`), for names GraphQL cannot carry. */
export function renameKeys(value: unknown, map: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, map));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[map[k] ?? k] = renameKeys(v, map);
  return out;
}

interface PagedResult {
  data: unknown[];
  meta: { current_page: number; last_page?: number; per_page: number; [k: string]: unknown };
}

function pageUrl(url: URL, page: number): string {
  const u = new URL(url);
  u.searchParams.set('page', String(page));
  return u.toString();
}

/**
 * `links` with absolute URLs and `meta.path`, as /v1 clients read them. A meta without
 * `last_page` is the simple pager: `links.last` is null and `next` is given while a page is full.
 * Every full pager (`last_page` and `total`) also lists its pages in `meta.links` (COMPAT.md
 * Pagers: not only the domains list), so no route can forget it.
 */
export function pagedEnvelope(result: PagedResult, url: URL) {
  const { meta } = result;
  const page = meta.current_page;
  const last = meta.last_page;
  const hasNext = last !== undefined ? page < last : result.data.length >= meta.per_page;
  const path = `${url.origin}${url.pathname}`;
  const links = {
    first: pageUrl(url, 1),
    last: last !== undefined ? pageUrl(url, last) : null,
    prev: page > 1 ? pageUrl(url, page - 1) : null,
    next: hasNext ? pageUrl(url, page + 1) : null,
  };
  const out = { data: result.data, links, meta: { ...meta, path } as Record<string, unknown> };
  if (last !== undefined) out.meta.links = metaLinks(url, page, last, links);
  return out;
}

/** The page list some clients render: previous, each page, next (Laravel's paginator shape). */
function metaLinks(url: URL, page: number, last: number, links: { prev: string | null; next: string | null }) {
  const pages = Array.from({ length: last }, (_, i) => ({ url: pageUrl(url, i + 1), label: String(i + 1), active: i + 1 === page }));
  return [
    { url: links.prev, label: '&laquo; Previous', active: false },
    ...pages,
    { url: links.next, label: 'Next &raquo;', active: false },
  ];
}

/** The wire body for a successful result, or undefined for an empty 204. */
export function shape(spec: RouteSpec, result: unknown, url: URL): unknown {
  const renamed = spec.rename ? renameKeys(result, spec.rename) : result;
  switch (spec.envelope) {
    case 'none':
      return undefined;
    case 'raw':
      return renamed;
    case 'paged':
      return pagedEnvelope(renamed as PagedResult, url);
    default:
      return { data: renamed };
  }
}
