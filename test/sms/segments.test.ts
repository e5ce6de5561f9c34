import { segmentCount, smsSegments } from '../../src/modules/sms/segments.js';

const gsm = (n: number) => 'a'.repeat(n);
const ucs = (n: number) => 'ж'.repeat(n);

describe('SMS segments', () => {
  it('GSM-7: one segment up to 160 septets, then 153 per segment', () => {
    expect(smsSegments(gsm(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(segmentCount(gsm(161))).toBe(2);
    expect(segmentCount(gsm(306))).toBe(2);
    expect(segmentCount(gsm(307))).toBe(3);
    expect(segmentCount(gsm(459))).toBe(3);
    expect(segmentCount(gsm(460))).toBe(4);
  });

  it('UCS-2: one segment up to 70 code units, then 67 per segment', () => {
    expect(smsSegments(ucs(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(segmentCount(ucs(71))).toBe(2);
    expect(segmentCount(ucs(134))).toBe(2);
    expect(segmentCount(ucs(135))).toBe(3);
  });

  it('extension-table characters stay GSM-7 and count twice', () => {
    for (const ch of ['€', '{', '}', '[', ']', '~', '|', '^', '\\', '\f']) {
      expect(smsSegments(ch)).toEqual({ encoding: 'GSM-7', units: 2, segments: 1 });
    }
    expect(segmentCount(gsm(158) + '€')).toBe(1);
    expect(segmentCount(gsm(159) + '€')).toBe(2);
    expect(segmentCount('{'.repeat(80))).toBe(1);
    expect(segmentCount('{'.repeat(81))).toBe(2);
  });

  it('the basic set includes accented letters, Greek capitals and line breaks', () => {
    const text = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà';
    expect(smsSegments(text).encoding).toBe('GSM-7');
    expect(smsSegments(text).units).toBe([...text].length);
  });

  it('any other character switches the whole text to UCS-2; an emoji is two code units', () => {
    expect(smsSegments(gsm(69) + 'ç')).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(gsm(68) + '😀')).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSegments(gsm(69) + '😀')).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
    // The euro sign is in the GSM extension table, but in a UCS-2 text it is one code unit.
    expect(smsSegments('€'.repeat(69) + 'ж')).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(segmentCount(gsm(134) + '😀')).toBe(3);
  });
});
