/**
 * GraphQL fields /v1 leaves out (`Type.field`), so /v1 answers keep the shapes SPEC.md gives
 * while GraphQL clients get a little more. The adapter drops them (by key) from the answers of
 * routes whose result can hold the type, and the OpenAPI document from the type's schema.
 */
export const HIDDEN_FIELDS = [
  // The report address is in the default wanted_dmarc_record; SPEC.md's monitor has no field for it.
  'DmarcMonitor.report_address',
  // No inbound object in SPEC.md; COMPAT.md's forwards are `{type, value}`: the confirmation state is for GraphQL.
  'InboundForward.confirmation',
];
