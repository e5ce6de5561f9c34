import { getMetadataStorage as validationStorage, ValidationTypes } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';

/**
 * The OpenAPI keywords of the argument rules the validators enforce, read from class-validator's
 * metadata for the args class behind each root field (type-graphql's metadata links the two), so
 * the document and the validation cannot drift apart. Only what validateArgs (src/graphql/validation.ts)
 * checks is read: the top level of each `@Args()` class, inherited rules included, as
 * `validate()` sees them. Rules the services check in code (send.validate.ts, ...) and custom
 * decorators whose rule cannot be read (a role name in any letter case, a placeholder that must
 * appear) are left out.
 */
export type Keywords = {
  maxLength?: number;
  minLength?: number;
  enum?: string[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
  /** The keywords of each item of a list. */
  items?: Keywords;
};

type Meta = ReturnType<ReturnType<typeof validationStorage>['getTargetValidationMetadatas']>[number];

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown) => (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? [...v] : undefined);

/** class-validator's own decorators, by name, from the constraints they store. */
function builtIn(m: Meta): Keywords | undefined {
  const [a, b] = m.constraints ?? [];
  switch (m.name) {
    case 'maxLength':
      return { maxLength: num(a) };
    case 'minLength':
      return { minLength: num(a) };
    case 'isLength':
      return { minLength: num(a), maxLength: num(b) };
    case 'isIn':
      return { enum: strings(a) };
    case 'isEmail':
      return { format: 'email' };
    case 'isUrl':
      return { format: 'uri' };
    case 'min':
      return { minimum: num(a) };
    case 'max':
      return { maximum: num(a) };
    case 'arrayMaxSize':
      return { maxItems: num(a) };
    case 'arrayMinSize':
      return { minItems: num(a) };
    case 'matches': {
      // JSON Schema patterns take no flags: a case-insensitive rule cannot be written as one.
      const flags = a instanceof RegExp ? a.flags : typeof b === 'string' ? b : '';
      const source = a instanceof RegExp ? a.source : typeof a === 'string' ? a : undefined;
      return flags.replace(/[gy]/g, '') ? {} : { pattern: source };
    }
    default:
      return undefined;
  }
}

/** The per-item rules of src/graphql/validation.ts, by name: their bound or list is the stored constraint. */
function custom(m: Meta): Keywords | undefined {
  const [stored] = m.constraints ?? [];
  switch (m.name) {
    case 'eachEmail':
      return { items: { format: 'email' } };
    case 'eachMaxLen':
      return { items: { maxLength: num(stored) } };
    case 'eachOneOf':
      return { items: { enum: strings(stored) } };
    default:
      return undefined;
  }
}

function merge(into: Keywords, add: Keywords): void {
  for (const [k, v] of Object.entries(add) as [keyof Keywords, unknown][]) {
    if (v === undefined) continue;
    if (k === 'items') merge((into.items ??= {}), v as Keywords);
    else (into as Record<string, unknown>)[k] = v;
  }
}

/** Rules of one args class, by GraphQL argument name. */
function rulesOfClass(cls: Function): Record<string, Keywords> {
  const tg = graphqlStorage();
  const nameOf = (property: string) =>
    tg.fields.find((f) => f.name === property && (f.target === cls || cls.prototype instanceof f.target))?.schemaName ?? property;
  const out: Record<string, Keywords> = {};
  for (const m of validationStorage().getTargetValidationMetadatas(cls, '', false, false)) {
    if (m.type !== ValidationTypes.CUSTOM_VALIDATION) continue;
    const kw = builtIn(m) ?? custom(m);
    if (!kw) continue;
    merge((out[nameOf(m.propertyName)] ??= {}), m.each ? { items: kw } : kw);
  }
  return out;
}

let byField: Map<string, Record<string, Keywords>> | null = null;

/** The argument rules of a root field (by its schema name), from every `@Args()` class it takes. */
export function argumentRules(field: string): Record<string, Keywords> {
  if (!byField) {
    byField = new Map();
    const tg = graphqlStorage();
    for (const r of [...tg.queries, ...tg.mutations]) {
      const rules: Record<string, Keywords> = {};
      for (const p of tg.params) {
        if (p.target !== r.target || p.methodName !== r.methodName || p.kind !== 'args' || p.validateSettings === false) continue;
        const cls = p.getType();
        if (typeof cls !== 'function') continue;
        for (const [name, kw] of Object.entries(rulesOfClass(cls as Function))) merge((rules[name] ??= {}), kw);
      }
      byField.set(r.schemaName, rules);
    }
  }
  return byField.get(field) ?? {};
}
