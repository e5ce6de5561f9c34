import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { deliveryReason, diagnose } from '../../src/lib/delivery-reason.js';
import { scrapeMetrics, sampleOf } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The operator's view in the repository (deploy/grafana/postbox-dashboard.json and
 * deploy/prometheus/postbox-alerts.yml, docs/monitoring.md) uses only metrics the processes
 * export, with the types its queries assume, and its alert rules are whole.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}

const rules: Rule[] = (parse(readFileSync('deploy/prometheus/postbox-alerts.yml', 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync('deploy/grafana/postbox-dashboard.json', 'utf8')) as { panels: { type: string; targets?: { expr: string }[] }[] };
const panelExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

/** Prometheus's own series, not a process's. */
const FROM_PROMETHEUS = new Set(['up']);
const SUFFIX = /_(bucket|sum|count)$/;

/** The series a PromQL expression selects: every name followed by a selector `{` or a range `[`, or standing alone. */
function seriesOf(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  const names = new Set<string>();
  for (const m of withoutStrings.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{|\[)/g)) names.add(m[1]);
  for (const m of withoutStrings.matchAll(/\b((?:postbox|http|process|nodejs|unexpected)_[a-z0-9_]+)\b/g)) names.add(m[1]);
  // Label names in by (...) / selectors are never followed by { or [; PromQL functions are followed by (.
  return [...names];
}

/** `# TYPE name type` of a scrape. */
function typesOf(text: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(m[1], m[2]);
  return types;
}

it('has whole alert rules, each with a severity, a summary and a description', () => {
  expect(rules.length).toBeGreaterThanOrEqual(10);
  const names = new Set<string>();
  for (const r of rules) {
    expect(r.alert).toMatch(/^Postbox[A-Za-z]+$/);
    expect(names.has(r.alert)).toBe(false);
    names.add(r.alert);
    expect(['critical', 'warning', 'info']).toContain(r.labels.severity);
    expect(r.annotations.summary.length).toBeGreaterThan(10);
    expect(r.annotations.description.length).toBeGreaterThan(10);
    if (r.for !== undefined) expect(r.for).toMatch(/^\d+[smh]$/);
    // Balanced brackets: a rule Prometheus would refuse to load.
    for (const [open, close] of ['()', '{}', '[]']) expect(r.expr.split(open).length).toBe(r.expr.split(close).length);
  }
  // What the operator must hear of (issue list of the operator's view).
  for (const needed of ['DatabaseDown', 'DeliveryBacklog', 'DeliveryStalled', 'DeliveryQueueOld', 'DeferralsHigh', 'BounceRateHigh', 'WebhookFailures', 'WebhooksPaused', 'EventLoopDelay']) {
    expect(names).toContain(`Postbox${needed}`);
  }
});

it('uses only metrics the processes export, with the types its queries assume', async () => {
  const types = typesOf(await scrapeMetrics(s));
  const used = new Set([...rules.map((r) => r.expr), ...panelExprs].flatMap(seriesOf));
  expect(used.size).toBeGreaterThan(10);
  for (const series of used) {
    if (FROM_PROMETHEUS.has(series)) continue;
    const histogram = SUFFIX.test(series) && types.get(series.replace(SUFFIX, '')) === 'histogram';
    const name = histogram ? series.replace(SUFFIX, '') : series;
    expect({ series, type: types.get(name) ?? 'not exported' }).toEqual({ series, type: expect.stringMatching(/^(counter|gauge|histogram)$/) });
    if (SUFFIX.test(series) && !types.has(series)) expect({ series, type: types.get(name) }).toEqual({ series, type: 'histogram' });
    if (series.endsWith('_total')) expect({ series, type: types.get(name) }).toEqual({ series, type: 'counter' });
  }
});

it('reports the database reachable and the queues with their ready jobs', async () => {
  const text = await scrapeMetrics(s);
  expect(sampleOf(text, 'postbox_database_up')).toBe(1);
  expect(sampleOf(text, 'postbox_queue_ready{queue="email.deliver"}')).not.toBeNull();
});

it('classifies what receivers answer into reasons an operator can act on', () => {
  const cases: [string, string | null, string][] = [
    ['delivered', '250 2.0.0 OK', 'none'],
    ['deferred', 'connect ECONNREFUSED 127.0.0.1:25', 'connection'],
    ['deferred', '421 4.7.0 Try again later, closing connection.', 'rate_limited'],
    ['deferred', '450 4.7.28 Our system has detected an unusual rate of unsolicited mail', 'rate_limited'],
    ['soft_bounced', '452 4.2.2 The email account that you tried to reach is over quota', 'mailbox_full'],
    ['hard_bounced', '550 5.1.1 The email account that you tried to reach does not exist', 'unknown_recipient'],
    ['hard_bounced', '550 5.7.26 Unauthenticated email from example.com is not accepted due to DMARC policy', 'policy'],
    ['hard_bounced', '554 5.6.0 Message content rejected', 'content'],
    ['hard_bounced', '550 mailbox unavailable', 'unknown_recipient'],
    ['deferred', '451 temporary local problem', 'other'],
  ];
  for (const [status, response, reason] of cases) expect({ response, reason: deliveryReason(status, response) }).toEqual({ response, reason });
});

it("names the large providers' sender requirements a refusal cites, and the provider", () => {
  const cases: [string, string, string | null, string | null][] = [
    ['hard_bounced', '550-5.7.26 Unauthenticated email from example.com is not accepted due to domain\'s DMARC policy. - gsmtp', 'dmarc_alignment', 'gmail'],
    ['hard_bounced', "550 5.7.32 The From: header isn't aligned with either the authenticated SPF or DKIM organizational domain", 'dmarc_alignment', null],
    ['hard_bounced', '550 5.7.515 Access denied, sending domain example.com does not meet the required authentication level. outlook.com', 'authentication', 'microsoft'],
    ['hard_bounced', '550 5.7.27 The sender does not pass SPF', 'authentication', null],
    ['deferred', '421 4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address - gsmtp', 'spam_rate', 'gmail'],
    ['deferred', '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints - see https://postmaster.yahooinc.com', 'spam_rate', 'yahoo'],
    ['hard_bounced', '550 5.7.1 Unfortunately, messages from [192.0.2.1] weren\'t sent. Please contact your Internet service provider since part of their network is on our block list (S3150).', 'blocklisted', 'microsoft'],
    ['hard_bounced', '550 5.7.25 The IP address sending this message does not have a PTR record setup - gsmtp', 'reverse_dns', 'gmail'],
    ['deferred', '421 4.7.29 Your email has been rate limited because this message wasn\'t sent over a TLS connection', 'tls', null],
    ['hard_bounced', '550 5.7.1 Bulk mail must support one-click unsubscribe (List-Unsubscribe-Post)', 'one_click_unsubscribe', null],
    ['hard_bounced', '550 5.1.1 The email account that you tried to reach does not exist. - gsmtp', null, 'gmail'],
    ['delivered', '250 2.0.0 OK DMARC', null, null],
  ];
  for (const [status, response, requirement, provider] of cases) {
    const d = diagnose(status, response);
    expect({ response, requirement: d.requirement, provider: d.provider }).toEqual({ response, requirement, provider });
    expect(d.explanation.length).toBeGreaterThan(20);
  }
  // Only the answer's first characters are read, however long it is.
  expect(diagnose('hard_bounced', `550 5.1.1 ${'x'.repeat(1_000_000)} DMARC`).requirement).toBeNull();
});
