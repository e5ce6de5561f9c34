import type { Entities } from '../db/orm.js';
import { moduleTables } from '../modules/tables.js';
import { engineTables } from '../engines/tables.js';

/** Every table the ORM maps, in every role: the modules' and the engines' own. */
export const entities: Entities = [...moduleTables, ...engineTables];
