import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { normalizeIp, percent, ReportError } from '../../src/modules/dmarc/aggregate.js';
import { parseAggregate, unpack as unpackWithin, UnpackBudget } from '../../src/modules/dmarc/aggregate.parse.js';

const MAX_REPORT_BYTES = 10 * 1024 * 1024;
const unpack = (data: Buffer) => unpackWithin(data, new UnpackBudget(MAX_REPORT_BYTES));
import { gz, reportXml, zip } from './reports-support.js';

describe('parseAggregate', () => {
  it('reads an RFC 7489 report: metadata, published policy, rows, identifiers, auth results', () => {
    const r = parseAggregate(reportXml('google', 'example.com'));
    expect(r).toMatchObject({
      org_name: 'google.com',
      org_email: 'noreply-dmarc-support@google.com',
      report_id: '10525435579337670012',
      date_begin: new Date('2026-11-01T00:00:00Z'),
      date_end: new Date('2026-11-01T23:59:59Z'),
      policy: { domain: 'example.com', adkim: 'r', aspf: 'r', p: 'none', sp: 'none', pct: 100 },
    });
    expect(r.records).toHaveLength(4);
    expect(r.records[0]).toEqual({
      source_ip: '192.0.2.10',
      count: 2,
      disposition: 'none',
      aligned_dkim: true,
      aligned_spf: true,
      override_reason: null,
      override_comment: null,
      header_from: 'example.com',
      envelope_from: null,
      spf_auth: [{ type: 'spf', domain: 'mta.example.com', result: 'pass', selector: null }],
      dkim_auth: [{ type: 'dkim', domain: 'example.com', result: 'pass', selector: 'pb1' }],
    });
    expect(r.records[3]).toMatchObject({
      source_ip: '2001:db8::25',
      override_reason: 'forwarded',
      override_comment: 'via a mailing list',
      envelope_from: 'example.com',
      dkim_auth: [],
    });
  });

  it('keeps report ids as text and reads entities', () => {
    const xml = reportXml('google', 'example.com')
      .replace('<report_id>10525435579337670012</report_id>', '<report_id>0012</report_id>')
      .replace('<org_name>google.com</org_name>', '<org_name>Ben &amp; Jerry</org_name>');
    const r = parseAggregate(xml);
    expect(r.report_id).toBe('0012');
    expect(r.org_name).toBe('Ben & Jerry');
  });

  it.each([
    ['<feedback><report_metadata><org_name>x</org_name><report_id>1</report_id><date_range><begin>5</begin><end>4</end></date_range></report_metadata></feedback>', /ends before it begins/],
    ['<feedback><report_metadata><org_name>x</org_name><report_id>1</report_id></report_metadata></feedback>', /no date_range begin/],
    ['<feedback><report_metadata><report_id>1</report_id><date_range><begin>1</begin><end>2</end></date_range></report_metadata><policy_published><domain>a.b</domain></policy_published></feedback>', /no org_name/],
    ['<feedback><report_metadata><org_name>x</org_name><report_id>1</report_id><date_range><begin>1</begin><end>2</end></date_range></report_metadata></feedback>', /no policy_published domain/],
    ['<feedback><unclosed></feedback>', /not well-formed/],
  ])('refuses %#', (xml, message) => {
    expect(() => parseAggregate(xml)).toThrow(message);
  });

  it('refuses unknown dispositions and policy results', () => {
    const xml = reportXml('google', 'example.com');
    expect(() => parseAggregate(xml.replace('<disposition>quarantine</disposition>', '<disposition>drop</disposition>'))).toThrow(/unknown disposition "drop"/);
    expect(() => parseAggregate(xml.replace('<spf>fail</spf>', '<spf>maybe</spf>'))).toThrow(/other than pass or fail/);
  });
});

describe('unpack', () => {
  const xml = reportXml('outlook', 'example.com');

  it('takes plain XML, gzip and zip, by their first bytes', () => {
    expect(unpack(Buffer.from(xml))).toBe(xml);
    expect(unpack(gz(xml))).toBe(xml);
    expect(unpack(zip({ 'any-name.xml': xml }))).toBe(xml);
  });

  it('refuses reports that unpack past the limit without inflating them whole', () => {
    const big = Buffer.alloc(MAX_REPORT_BYTES + 1, 0x20);
    expect(() => unpack(gzipSync(big))).toThrow(/more than/);
    expect(() => unpack(Buffer.from(zipSync({ 'r.xml': big })))).toThrow(/more than/);
  });

  it('refuses archives without exactly one XML file, and damaged ones', () => {
    expect(() => unpack(zip({ 'readme.txt': 'x' }))).toThrow(/no XML file/);
    expect(() => unpack(Buffer.concat([zip({ 'r.xml': xml }).subarray(0, 30)]))).toThrow(ReportError);
  });
});

it('normalizeIp writes each address one way', () => {
  expect(normalizeIp('2001:DB8:0:0:0:0:0:25')).toBe('2001:db8::25');
  expect(normalizeIp(' 192.0.2.1 ')).toBe('192.0.2.1');
  expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(normalizeIp('192.0.2.256')).toBeNull();
  expect(normalizeIp('example.com')).toBeNull();
});

it('percent rounds to two decimals and drops trailing zeros', () => {
  expect([percent(4, 6), percent(6, 6), percent(0, 6), percent(1, 8), percent(0, 0)]).toEqual(['66.67%', '100%', '0%', '12.5%', '0%']);
});
