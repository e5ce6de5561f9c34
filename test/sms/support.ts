import { accountIdOf } from '../support/factories.js';
import type { EventTap } from '../support/events.js';
import type { TestServer } from '../support/server.js';
import { assignNumberTo } from '../support/sms.js';

export { randomE164 as phone } from '../support/sms.js';

/** An SMS number handed to the account of `token` (the admin account by default) by the operator. */
export async function assignNumber(s: TestServer, token?: string): Promise<{ id: string; telephone_number: string }> {
  return assignNumberTo(s, await accountIdOf(s, token));
}

import { sql } from '../sending/helpers.js';

export { sql };

/** Polls until `probe` answers something truthy. */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The texts of a message once none is queued any more (the send job ran). */
export function settled(s: TestServer, messageId: string, done: (status: string) => boolean = (st) => st !== 'queued') {
  return eventually(async () => {
    const rows = await sql(s, 'select * from sms where message_id = ? order by created_at, id', [messageId]);
    return rows.length && rows.every((r) => done(r.status)) ? rows : null;
  });
}

/**
 * The `sms.*` events of one text, as the SMS webhook of its number (a tap made before the text was
 * sent) got them: their delivered bodies, in the order they happened, once every event written so
 * far has been delivered. The events of a text are written with its status changes, so call this
 * once the text has reached the status the test waits for.
 */
export async function eventsOf(tap: EventTap, smsId: string): Promise<any[]> {
  return (await tap.settle()).filter((body) => body.data?.sms?.id === smsId);
}

export function activityOf(s: TestServer, smsId: string): Promise<string[]> {
  return sql<{ status: string }>(s, 'select status from sms_activities where sms_id = ? order by created_at, id', [smsId]).then((r) => r.map((x) => x.status));
}

export const INVALID = 'The given data was invalid.';
export const NOT_FOUND = { message: 'Resource not found.' };
