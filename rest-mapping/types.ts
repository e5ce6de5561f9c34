/**
 * One route of the /v1 surface, keyed in its table by GraphQL root field ('Query.x' / 'Mutation.y').
 *
 * envelope:
 * - `data`: `{data: <result>}` (one object, or a list that has no pager)
 * - `paged`: the result is `{data, meta}`; the answer adds absolute `links` and `meta.path`,
 *   and `meta.links` when the meta is the full pager's (it has `last_page`)
 * - `none`: an empty 204
 * - `raw`: the result as it is (an object already in its wire shape)
 */
export type Envelope = 'data' | 'paged' | 'none' | 'raw';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express-style; each `:param` is the GraphQL argument of the same name. */
  path: string;
  status?: 200 | 201 | 202 | 204;
  envelope: Envelope;
  /** GraphQL field name → wire name, anywhere in the result (`two_fa` → `2fa`). */
  rename?: Record<string, string>;
  description?: string;
  /**
   * Builds the whole answer from the result when status and envelope are not enough: headers,
   * or a body whose shape depends on the result (POST /v1/email).
   */
  /**
   * Fields left out of the answer when their value is null (SPEC.md "only when"): `key` anywhere,
   * `parent.key` only inside what `parent` holds.
   */
  omitNull?: string[];
  /** Statuses this route answers besides 401/403/404/422/429, for the OpenAPI document (402 of verification). */
  extraErrors?: 402[];
  /** The OpenAPI success response, when `respond` answers something the envelope cannot describe. */
  responseDoc?: Record<string, unknown>;
  /** The JSON body is an array (POST /v1/bulk-email): it is passed as this argument. */
  arrayBody?: string;
  respond?: (result: any) => { status: number; body?: unknown; headers?: Record<string, string> };
}

export type RouteTable = Record<string, RouteSpec>;

/** A resource of /v1: its name and description (the OpenAPI tag) and its routes. */
export interface RestResource {
  name: string;
  description: string;
  routes: RouteTable;
}

/**
 * The /v1 contract the composition root hands the REST surface: the resources of every module,
 * in the order the OpenAPI document lists them, and the GraphQL fields (`Type.field`) /v1 leaves
 * out of its answers so they keep SPEC.md's shapes.
 */
export interface RestContract {
  resources: readonly RestResource[];
  hidden: readonly string[];
}
