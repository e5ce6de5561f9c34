import type { TestServer } from '../support/server.js';

/** Helpers of the SMS inbound route tests. */

export { assignNumberTo as assignNumber, randomE164 as randomNumber } from '../support/sms.js';

import { sql } from '../sending/helpers.js';

export { sql };

/** The `webhooks` row a route delivers through. */
export async function targetOf(s: TestServer, routeId: string) {
  const [row] = await sql(s, 'select w.* from webhooks w join sms_inbounds r on r.webhook_id = w.id where r.id = ?', [routeId]);
  return row;
}

export const ROUTE_KEYS = ['created_at', 'enabled', 'filter', 'forward_url', 'id', 'name', 'secret'];
export const NOT_FOUND = { message: 'Resource not found.' };
export const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
