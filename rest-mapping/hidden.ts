import { modules } from '../src/modules/index.js';

/**
 * GraphQL fields /v1 leaves out (`Type.field`), from the modules' manifests, so /v1 answers keep
 * the shapes SPEC.md gives while GraphQL clients get a little more. The adapter drops them (by
 * key) from the answers of routes whose result can hold the type, and the OpenAPI document from
 * the type's schema.
 */
export const HIDDEN_FIELDS: readonly string[] = modules.flatMap((m) => m.hiddenOnRest ?? []);
