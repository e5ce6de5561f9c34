/**
 * The SQL helpers live in db/sql.ts, shared by every repository. The dmarc module still imports
 * them from here; this file goes once it imports db/sql.ts.
 */
export { asDate, asDateOrNull, likeEscape, Where } from '../../db/sql.js';
