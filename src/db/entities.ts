import { modules } from '../modules/index.js';

/** Every entity the ORM maps: each module's, from its manifest. */
export const entities = modules.flatMap((m) => m.entities ?? []);
