import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * How one field of a row a statement takes as JSON lands in its table: `true`, in the column of
 * its name; a list of columns, in each of them (`at`: created_at and updated_at); `{ type }`, in
 * no column (the statement uses it otherwise: a join key, an offset into a bytea parameter).
 */
export type FieldInto = true | readonly string[] | { type: string };

/**
 * The fields of a row type `Row`, each with where it lands: every field of the type, and no other
 * (the object literal is checked against the type both ways).
 */
export type RecordsetFields<Row> = { readonly [K in keyof Row & string]-?: FieldInto };

export interface RecordsetInsert {
  /** The insert's column list, computed columns last. */
  columns: string;
  /** The select list, of `x.<field>` and the computed columns' expressions. */
  values: string;
  /** `jsonb_to_recordset(<source>) as x(<field> <type>, ...)`: each field's type is its column's. */
  from(source: string): string;
}

const quoted = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`);
const RESERVED = new Set(['references', 'from', 'to', 'position', 'user', 'order', 'group', 'default']);

/** Each column of an entity's table with its SQL type, from the ORM's metadata. */
function columnTypes(em: EntityManager, entity: EntityClass<object>): Map<string, string> {
  const types = new Map<string, string>();
  for (const prop of em.getMetadata().get(entity).props) {
    prop.fieldNames?.forEach((column, i) => types.set(column, prop.columnTypes[i] ?? prop.columnTypes[0]!));
  }
  return types;
}

/**
 * An insert of rows handed over as one JSON parameter, described by the table's entity: the
 * statement names each field once (`fields`, checked against the row type), and the SQL type of
 * each comes from the column the entity maps, so the entity stays the one description of the
 * table. `computed` adds columns whose values come from elsewhere in the statement (a joined
 * row's id, a slice of a bytea parameter).
 */
export function recordsetInsert<Row>(em: EntityManager, entity: EntityClass<object>, fields: RecordsetFields<Row>, computed: Record<string, string> = {}): RecordsetInsert {
  const types = columnTypes(em, entity);
  const typeOf = (column: string) => {
    const type = types.get(column);
    if (!type) throw new Error(`${entity.name} maps no column ${column}`);
    return type;
  };
  const columns: string[] = [];
  const values: string[] = [];
  const recordset: string[] = [];
  for (const [field, into] of Object.entries(fields) as [string, FieldInto][]) {
    const inputOnly = typeof into === 'object' && !Array.isArray(into) ? (into as { type: string }).type : null;
    const targets = into === true ? [field] : inputOnly === null ? (into as readonly string[]) : [];
    recordset.push(`${quoted(field)} ${inputOnly ?? typeOf(targets[0]!)}`);
    for (const column of targets) {
      columns.push(quoted(column));
      values.push(`x.${quoted(field)}`);
    }
  }
  for (const [column, expression] of Object.entries(computed)) {
    typeOf(column);
    columns.push(quoted(column));
    values.push(expression);
  }
  return {
    columns: columns.join(', '),
    values: values.join(', '),
    from: (source) => `jsonb_to_recordset(${source}) as x(${recordset.join(', ')})`,
  };
}
