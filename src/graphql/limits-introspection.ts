import { BREAK, visit, type DocumentNode, type GraphQLError, type ValidationRule } from 'graphql';
import type { GraphQLLimits } from './limits.js';
import { refusal } from './refusal.js';
import { toGraphQLError } from './errors.js';
import { errors } from '../core/errors.js';

/** The schema is only reachable through these two; `__typename` tells nothing beyond a type's name. */
const isIntrospectionField = (name: string) => name === '__schema' || name === '__type';

/** GRAPHQL_INTROSPECTION=off: no document that asks for the schema runs, whoever sends it. */
export const noIntrospection: ValidationRule = (ctx) => ({
  Field(node) {
    if (isIntrospectionField(node.name.value)) {
      ctx.reportError(refusal('GraphQL introspection is disabled on this server.', node));
    }
  },
});

/** Whether a document asks for the schema anywhere (fragments included), per parsed document. */
const introspecting = new WeakMap<DocumentNode, boolean>();
function asksForSchema(document: DocumentNode): boolean {
  let found = introspecting.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Field(node) {
        if (isIntrospectionField(node.name.value)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    introspecting.set(document, found);
  }
  return found;
}

/**
 * The 401 for a caller without a credential who asks for the schema while introspection is for
 * authenticated callers, or null. Runs once the context is known (validation rules never see it);
 * with introspection off, validation has refused the document already.
 */
export function introspectionRefusal(limits: GraphQLLimits, document: DocumentNode, caller: { auth: unknown; operator: boolean } | undefined): GraphQLError | null {
  if (limits.introspection !== 'authenticated' || caller?.auth || caller?.operator) return null;
  return asksForSchema(document) ? toGraphQLError(errors.unauthenticated()) : null;
}
