import { METRICS_TOKEN, type TestServer } from './server.js';

/** GET /metrics as Prometheus scrapes it, with the test server's METRICS_TOKEN; the text. */
export async function scrapeMetrics(s: TestServer): Promise<string> {
  const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${await res.text()}`);
  return res.text();
}

/** A sample's value in a scrape (`name{labels}` as written there), or null when it has none. */
export function sampleOf(text: string, series: string): number | null {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return null;
}
