import { newId, sortableId } from '../../src/lib/ids.js';

/**
 * Ids keep the shape /v1 clients see (lowercase base36, 16 characters unless asked otherwise);
 * those of rows written many times a second (messages, emails, activities, webhook deliveries and
 * attempts) sort by the time they were made, so PostgreSQL appends them to their indexes.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a sortable id has the shape of any other id, of the length asked', () => {
  for (const length of [16, 24]) {
    const ids = Array.from({ length: 2000 }, () => sortableId(length));
    for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9a-z]{${length}}$`));
    // Ids made in the same millisecond differ by their random part.
    expect(new Set(ids).size).toBe(ids.length);
  }
  expect(newId()).toMatch(/^[0-9a-z]{16}$/);
});

it('a sortable id made in a later second sorts after one made earlier', async () => {
  const earlier = Array.from({ length: 50 }, () => sortableId());
  await sleep(1100);
  const later = Array.from({ length: 50 }, () => sortableId());
  for (const a of earlier) for (const b of later) expect(a < b).toBe(true);
  // Its first 6 characters are the seconds since 2020.
  const made = Date.UTC(2020, 0, 1) + parseInt(later[0].slice(0, 6), 36) * 1000;
  expect(Math.abs(made - Date.now())).toBeLessThan(2000);
});
