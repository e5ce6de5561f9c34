import { GraphQLError, type ASTNode } from 'graphql';

/**
 * A document refused by a limit, the allow-list or the introspection switch, before it runs: a
 * 400 with the code Apollo gives its own validation errors, so both endpoints answer alike.
 */
export function refusal(message: string, nodes?: ASTNode | readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } });
}
