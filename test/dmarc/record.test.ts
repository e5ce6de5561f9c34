import { parseDmarcRecord } from '../../src/modules/dmarc/dmarc-record.js';
import { spfStatus } from '../../src/modules/dmarc/spf.js';

const ok = (r: string) => expect(parseDmarcRecord(r)).toEqual(expect.objectContaining({ ok: true }));
const bad = (r: string, fragment: string) => {
  const res = parseDmarcRecord(r);
  expect(res.ok).toBe(false);
  expect((res as { error: string }).error).toContain(fragment);
};

describe('parseDmarcRecord', () => {
  it('accepts the minimal record, with or without the trailing separator', () => {
    ok('v=DMARC1; p=none');
    ok('v=DMARC1; p=none;');
    ok('v=DMARC1;p=reject;');
  });

  it('accepts every RFC 7489 tag with valid values and returns them', () => {
    const r = parseDmarcRecord(
      'v=DMARC1; p=quarantine; sp=reject; pct=50; adkim=s; aspf=r; fo=0:1:d:s; rf=afrf; ri=86400; ' +
        'rua=mailto:agg@example.com,mailto:other@example.org!10m; ruf=mailto:forensic@example.com!500',
    );
    expect(r).toEqual({
      ok: true,
      tags: {
        v: 'DMARC1', p: 'quarantine', sp: 'reject', pct: '50', adkim: 's', aspf: 'r', fo: '0:1:d:s', rf: 'afrf', ri: '86400',
        rua: 'mailto:agg@example.com,mailto:other@example.org!10m', ruf: 'mailto:forensic@example.com!500',
      },
    });
  });

  it('treats tag names and policy values case-insensitively, and spaces around = and ,', () => {
    ok('v=DMARC1; P=Reject; PCT = 100; rua=mailto:a@example.com , mailto:b@example.com');
  });

  it('accepts a percent-encoded address', () => {
    ok('v=DMARC1; p=none; rua=mailto:dmarc%2Breports@example.com');
  });

  it('requires v=DMARC1 first, exactly', () => {
    bad('p=none; v=DMARC1', 'must start with v=DMARC1;');
    bad('v=dmarc1; p=none', 'must start with v=DMARC1;');
    bad('v=DMARC2; p=none', 'must start with v=DMARC1;');
    bad('', 'must start with v=DMARC1;');
    bad('v=spf1 -all', 'must start with v=DMARC1;');
  });

  it('requires p', () => {
    bad('v=DMARC1;', 'p tag');
    bad('v=DMARC1; rua=mailto:a@example.com', 'p tag');
  });

  it('checks policy and alignment values', () => {
    bad('v=DMARC1; p=maybe', 'p must be none, quarantine or reject');
    bad('v=DMARC1; p=none; sp=block', 'sp must be none, quarantine or reject');
    bad('v=DMARC1; p=none; adkim=x', 'adkim must be r or s');
    bad('v=DMARC1; p=none; aspf=relaxed', 'aspf must be r or s');
  });

  it('checks pct, ri, fo and rf', () => {
    bad('v=DMARC1; p=none; pct=101', 'pct must be an integer from 0 to 100');
    bad('v=DMARC1; p=none; pct=-1', 'pct must be an integer');
    bad('v=DMARC1; p=none; pct=5.5', 'pct must be an integer');
    ok('v=DMARC1; p=none; pct=0');
    bad('v=DMARC1; p=none; ri=1h', 'ri must be a whole number');
    bad('v=DMARC1; p=none; fo=2', 'fo must be one or more of 0, 1, d, s');
    bad('v=DMARC1; p=none; fo=0,1', 'fo must be one or more');
    bad('v=DMARC1; p=none; rf=iodef', 'rf must be afrf');
  });

  it('checks rua and ruf URIs', () => {
    bad('v=DMARC1; p=none; rua=agg@example.com', 'each rua entry must be a mailto: URI');
    bad('v=DMARC1; p=none; rua=https://example.com/r', 'each rua entry must be a mailto: URI');
    bad('v=DMARC1; p=none; ruf=mailto:not-an-address', 'ruf contains an invalid email address "not-an-address"');
    bad('v=DMARC1; p=none; rua=mailto:a@example.com!big', 'each rua entry must be a mailto: URI');
    bad('v=DMARC1; p=none; rua=mailto:a@example.com,', 'rua has an empty entry');
  });

  it('refuses unknown, duplicate, empty and malformed tags', () => {
    bad('v=DMARC1; p=none; foo=bar', 'unknown tag "foo"');
    bad('v=DMARC1; p=none; p=reject', 'the p tag appears more than once');
    bad('v=DMARC1; p=none; pct=', 'the pct tag has no value');
    bad('v=DMARC1; p=none;; pct=5', 'empty tag');
    bad('v=DMARC1; p=none; garbage', '"garbage" is not a tag=value pair');
  });
});

describe('spfStatus', () => {
  it('finds the one v=spf1 record among other TXT records', () => {
    expect(spfStatus(['google-site-verification=x', 'v=spf1 include:_spf.example.com ip4:192.0.2.0/24 ~all'])).toEqual({
      status: 'valid',
      record: 'v=spf1 include:_spf.example.com ip4:192.0.2.0/24 ~all',
    });
    expect(spfStatus(['v=spf1 a mx -all redirect=_spf.example.com'])).toMatchObject({ status: 'valid' });
  });
  it('answers not_found, multiple and invalid', () => {
    expect(spfStatus([])).toEqual({ status: 'not_found', record: null });
    expect(spfStatus(['v=spf10 -all', 'hello'])).toEqual({ status: 'not_found', record: null });
    expect(spfStatus(['v=spf1 -all', 'v=spf1 ~all'])).toEqual({ status: 'multiple', record: 'v=spf1 -all\nv=spf1 ~all' });
    expect(spfStatus(['v=spf1 include: bogus?? -all'])).toMatchObject({ status: 'invalid' });
  });
});
