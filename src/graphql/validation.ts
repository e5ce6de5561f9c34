import {
  ArrayMaxSize,
  IsEmail,
  IsIn,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import type { MiddlewareFn, ValidatorFn } from 'type-graphql';
import { errors, msg, type FieldErrors } from '../core/errors.js';
import { checkRules, ITEM_INDEX_MARK } from '../core/validation.js';

/**
 * Validation rules for input and args classes, on class-validator, with Laravel-style messages
 * (what /v1 clients of this API family already parse). Array-item rules report the failing
 * index, so keys come out as `scopes.0` like the wire format expects (core/validation.ts).
 */

export const MaxLen = (n: number) => MaxLength(n, { message: (a) => msg.maxString(a.property, n) });
export const MinInt = (n: number) => Min(n, { message: (a) => msg.min(a.property, n) });
export const MaxInt = (n: number) => Max(n, { message: (a) => msg.max(a.property, n) });
export const OneOf = (values: readonly string[]) => IsIn([...values], { message: (a) => msg.in(a.property) });
export const Email = () => IsEmail({}, { message: (a) => msg.email(a.property) });
export const MaxItems = (n: number) => ArrayMaxSize(n, { message: (a) => msg.maxItems(a.property, n) });

/**
 * Checks each element of an array; the message carries the index of the first failure. The
 * bound or list is stored as the rule's constraint, where the OpenAPI document reads it.
 */
function eachItem(name: string, test: (item: unknown) => boolean, text: (path: string) => string, constraints: unknown[] = []) {
  return (options?: ValidationOptions) => (object: object, propertyName: string) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName,
      options,
      constraints,
      validator: {
        validate: (value: unknown) => !Array.isArray(value) || value.every(test),
        defaultMessage: (a?: ValidationArguments) => {
          const i = (a!.value as unknown[]).findIndex((x) => !test(x));
          return `${i}${ITEM_INDEX_MARK}${text(`${a!.property}.${i}`)}`;
        },
      },
    });
}

export const EachOneOf = (values: readonly string[]) =>
  eachItem('eachOneOf', (x) => values.includes(x as string), msg.in, [[...values]])();
export const EachMaxLen = (n: number) =>
  eachItem('eachMaxLen', (x) => typeof x === 'string' && x.length <= n, (p) => msg.maxString(p, n), [n])();
export const EachEmail = () =>
  eachItem('eachEmail', (x) => typeof x === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(x), msg.email)();

/** type-graphql's validateFn: every args/input object is validated; failures become one 422. */
export const validateArgs: ValidatorFn = async (value) => {
  if (value === null || typeof value !== 'object') return;
  const items = Array.isArray(value) ? value : [value];
  const out: FieldErrors = {};
  for (const item of items) {
    if (item && typeof item === 'object') {
      await checkRules(item, out);
    }
  }
  if (Object.keys(out).length) throw errors.validation(out);
};

const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Dotted paths of the strings in `value` that hold a NUL character (PostgreSQL cannot store one)
 * or a lone UTF-16 surrogate (a JSON escape like `\ud800`: no UTF-8 text can hold it, and
 * URL and IDN encoders throw on it).
 */
function nulPaths(root: unknown, rootPath: string, out: string[]): void {
  // Its own stack, not recursion: a JSON argument may nest deeper than the call stack reaches
  // (test/sending/personalization-limits.test.ts). Children go on in reverse, so paths come out in order.
  const stack: [unknown, string][] = [[root, rootPath]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000') || LONE_SURROGATE.test(value)) out.push(path);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}.${i}`]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], path ? `${path}.${entries[i][0]}` : entries[i][0]]);
    }
  }
}

/**
 * A NUL character or a lone surrogate in any argument, on either surface, is a 422 on that field rather than a
 * database error: no text the service stores or matches can contain one.
 */
export const rejectNulCharacters: MiddlewareFn = async ({ args }, next) => {
  // Global middlewares wrap every field; most have no arguments at all.
  if (!args) return next();
  let any = false;
  for (const _ in args) {
    any = true;
    break;
  }
  if (!any) return next();
  const bad: string[] = [];
  nulPaths(args, '', bad);
  if (bad.length) throw errors.validation(Object.fromEntries(bad.map((p) => [p, [`The ${p.replace(/_/g, ' ')} contains an invalid character.`]])));
  return next();
};
