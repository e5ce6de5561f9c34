import type { EntityManager } from '@mikro-orm/postgresql';
import { startTestServer, type TestServer } from '../support/server.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { recordsetInsert } from '../../src/db/recordset.js';
import { sqlRows } from '../../src/db/sql.js';
import { newId } from '../../src/lib/ids.js';
import { Recipient } from '../../src/modules/recipients/recipient.entity.js';

/**
 * recordsetInsert writes the JSON-recordset inserts of the acceptance statement from the tables'
 * entities: each field once, its SQL type the column's. A field the entity does not map cannot
 * slip into a statement.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

interface Row {
  id: string;
  at: string;
  account_id: string;
  domain_id: string;
  email: string;
  note: string;
}

const em = () => s.app.services.orm.em.fork() as EntityManager;

it('takes each column\'s type from the entity, spreads a field over several columns, and writes the rows', async () => {
  const domain = await seedDomain(s);
  const accountId = await accountIdOf(s);
  const insert = recordsetInsert<Row>(em(), Recipient, {
    id: true,
    at: ['created_at', 'updated_at'],
    account_id: true,
    domain_id: true,
    email: true,
    note: { type: 'text' },
  });
  expect(insert.columns).toBe('id, created_at, updated_at, account_id, domain_id, email');
  expect(insert.from('$1::jsonb')).toBe(
    'jsonb_to_recordset($1::jsonb) as x(id varchar(32), at timestamptz(6), account_id varchar(32), domain_id varchar(32), email varchar(320), note text)',
  );
  const at = '2026-01-02T03:04:05.000Z';
  const row: Row = { id: newId(), at, account_id: accountId, domain_id: domain.id, email: 'recordset@example.com', note: 'not stored' };
  const written = await sqlRows<{ email: string; created_at: string; updated_at: string }>(
    em(),
    `insert into recipients (${insert.columns}) select ${insert.values} from ${insert.from('$1::jsonb')} returning email, created_at, updated_at`,
    [JSON.stringify([row])],
  );
  const iso = (t: string) => new Date(t).toISOString();
  expect(written.map((r) => ({ email: r.email, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }))).toEqual([
    { email: 'recordset@example.com', created_at: at, updated_at: at },
  ]);
});

it('refuses a field written to a column the entity does not map', () => {
  expect(() => recordsetInsert<{ id: string; colour: string }>(em(), Recipient, { id: true, colour: true })).toThrow('Recipient maps no column colour');
});
