import { getOperationAST, Kind, type DocumentNode, type GraphQLError } from 'graphql';
import { toGraphQLError } from './errors.js';
import { errors, label, msg, type AppError } from '../core/errors.js';
import { JSON_SHAPE_LIMITS, type JsonShapeLimits } from '../lib/json-shape.js';

/** Characters of one key shown in a refused variable's path, and of the whole path. */
const KEY_SHOWN = 40;
const PATH_SHOWN = 200;

function pathShown(path: readonly (string | number)[]): string {
  const text = path.map((p) => (typeof p === 'string' && p.length > KEY_SHOWN ? `${p.slice(0, KEY_SHOWN)}…` : String(p))).join('.');
  return text.length > PATH_SHOWN ? `${text.slice(0, PATH_SHOWN)}…` : text;
}

/**
 * The first limit of lib/json-shape.ts the variables break, or null: the walk stops there, and
 * goes no deeper than the depth limit, so its own recursion is bounded.
 */
function variablesShapeProblem(variables: Record<string, unknown>, limits: JsonShapeLimits): AppError | null {
  let values = 0;
  const path: (string | number)[] = ['variables'];
  const walk = (value: unknown): AppError | null => {
    if (++values > limits.maxValues) return errors.payloadTooLarge(`The variables hold more than ${limits.maxValues} values.`);
    if (value === null || typeof value !== 'object') return null;
    const field = () => pathShown(path);
    if (path.length > limits.maxDepth) return errors.invalid(field(), `The ${label(field())} may not be nested more than ${limits.maxDepth} levels deep.`);
    const list = Array.isArray(value);
    if (list && value.length > limits.maxArrayItems) return errors.invalid(field(), msg.maxItems(field(), limits.maxArrayItems));
    for (const key of list ? value.keys() : Object.keys(value)) {
      path.push(key);
      const problem = walk((value as Record<string | number, unknown>)[key]);
      path.pop();
      if (problem) return problem;
    }
    return null;
  };
  return walk(variables);
}

/** The items a root field's argument allows by its own rule (`@MaxItems`), when it has one. */
export type MaxItemsOf = (field: string, argument: string) => number | undefined;

/**
 * The refusal for variables holding longer lists than they may, or null. graphql-js coerces every
 * item of a list variable before any rule of the argument runs (`@MaxItems` is checked after
 * coercion), so lists are measured here, before execution: no list may be longer than a request
 * body's may (lib/json-shape.ts; a body the server parsed is bound already, but variables also
 * come from a GET's query string), and a list given to a root field's argument may not be longer
 * than that argument's own rule allows, refused with the rule's own message.
 * Guarded by test/graphql/variables.test.ts.
 */
export function variablesRefusal(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  maxItemsOf: MaxItemsOf,
): GraphQLError | null {
  if (!variables || typeof variables !== 'object') return null;
  const shape = variablesShapeProblem(variables, JSON_SHAPE_LIMITS);
  if (shape) return toGraphQLError(shape);
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation === 'subscription') return null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    for (const argument of selection.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) continue;
      const value = variables[argument.value.name.value];
      if (!Array.isArray(value)) continue;
      const name = argument.name.value;
      const max = maxItemsOf(selection.name.value, name);
      if (max !== undefined && value.length > max) return toGraphQLError(errors.invalid(name, msg.maxItems(name, max)));
    }
  }
  return null;
}
