import { randomInt } from 'node:crypto';
import { OPERATOR_TOKEN, type TestServer } from './server.js';

/** A fresh E.164 number: test files run in parallel, and telephone numbers are unique. */
export function randomE164(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

export interface AssignedNumber {
  id: string;
  telephone_number: string;
  paused: boolean;
  created_at: string;
}

/** An SMS number handed to an account through the operator API, as the provider would assign it. */
export async function assignNumberTo(s: TestServer, accountId: string, telephone = randomE164()): Promise<AssignedNumber> {
  const res = await s.gql(
    'mutation($a: ID!, $n: String!) { operator_assign_sms_number(account_id: $a, telephone_number: $n) { id telephone_number paused created_at } }',
    { a: accountId, n: telephone },
    OPERATOR_TOKEN,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.operator_assign_sms_number;
}
