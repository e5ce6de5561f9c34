import { validate, type ValidationError } from 'class-validator';
import type { FieldErrors } from './errors.js';

/**
 * class-validator's findings as field errors, for every caller that validates an input class: the
 * GraphQL and /v1 surfaces (src/graphql/validation.ts) and callers outside any surface (a bulk
 * send's items, checked by a job). One conversion, so both word and key the errors alike.
 */

/**
 * Array-item rules (src/graphql/validation.ts) start their message with the failing index and
 * this mark, so that the key comes out as `scopes.0`, like the wire format expects.
 */
export const ITEM_INDEX_MARK = '\u0000';

/** Dotted keys for nested errors; an item rule's index joins its key. */
export function fieldErrorsOf(errs: ValidationError[], prefix = '', out: FieldErrors = {}): FieldErrors {
  for (const e of errs) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    for (const text of Object.values(e.constraints ?? {})) {
      const cut = text.indexOf(ITEM_INDEX_MARK);
      const key = cut >= 0 ? `${path}.${text.slice(0, cut)}` : path;
      (out[key] ??= []).push(cut >= 0 ? text.slice(cut + 1) : text);
    }
    if (e.children?.length) fieldErrorsOf(e.children, path, out);
  }
  return out;
}

/**
 * The rules declared on an input object's class, as the surfaces run them: a missing property is
 * left to the required checks that run before, unknown objects are let through.
 */
export async function checkRules(input: object, out: FieldErrors = {}): Promise<FieldErrors> {
  return fieldErrorsOf(await validate(input, { forbidUnknownValues: false, skipMissingProperties: true }), '', out);
}
