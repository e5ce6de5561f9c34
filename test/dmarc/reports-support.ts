import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import type { TestServer } from '../support/server.js';
import { seedDomain } from '../support/factories.js';

/** An aggregate report of test/fixtures/dmarc about `domain`. */
export function reportXml(name: 'google' | 'outlook', domain: string): string {
  return readFileSync(new URL(`../fixtures/dmarc/${name}.xml`, import.meta.url), 'utf8').replaceAll('{{DOMAIN}}', domain);
}

export const gz = (xml: string) => gzipSync(Buffer.from(xml));
export const zip = (files: Record<string, string>) =>
  Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([n, x]) => [n, Buffer.from(x)]))));

export const upload = (s: TestServer, monitorId: string, report: string | Buffer, token?: string) =>
  s.rest('POST', `/dmarc-monitoring/${monitorId}/reports`, {
    body: { report: typeof report === 'string' ? report : report.toString('base64') },
    token,
  });

/** A verified domain with a monitor; its report address comes from GraphQL. */
export async function monitoredDomain(s: TestServer, token?: string) {
  const domain = await seedDomain(s, { token });
  const res = await s.rest('POST', '/dmarc-monitoring', { body: { domain_id: domain.id }, token });
  if (res.status !== 201) throw new Error(`monitor: ${res.status} ${JSON.stringify(res.body)}`);
  const gql = await s.gql('query { dmarc_monitors(limit: 100) { id report_address } }', {}, token);
  const address = gql.body.data.dmarc_monitors.find((m: { id: string }) => m.id === res.body.data.id).report_address as string;
  return { domain, monitor: res.body.data, address };
}
