/** Which page of a list: `page` from 1, `limit` rows (10 to 100 on most lists, SPEC.md Limits). */
export interface PageQuery {
  page: number;
  limit: number;
}

/** The full pager's meta, less `path`, which /v1 adds from the request URL. */
export interface PageMeta {
  current_page: number;
  from: number | null;
  last_page: number;
  per_page: number;
  to: number | null;
  total: number;
}

/** One page of rows and its meta. */
export interface Page<T> {
  rows: T[];
  meta: PageMeta;
}

export function offsetOf(args: PageQuery): number {
  return (args.page - 1) * args.limit;
}

export function pageMeta(args: PageQuery, count: number, total: number): PageMeta {
  const from = count ? offsetOf(args) + 1 : null;
  return {
    current_page: args.page,
    from,
    last_page: Math.max(1, Math.ceil(total / args.limit)),
    per_page: args.limit,
    to: from === null ? null : from + count - 1,
    total,
  };
}
