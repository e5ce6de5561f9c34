import { modules } from '../modules/index.js';

/** Every resolver of the schema: each module's, from its manifest. */
export const resolvers = modules.flatMap((m) => m.resolvers ?? []);
