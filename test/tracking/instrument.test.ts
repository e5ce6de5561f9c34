import { instrument, unsubscribeUrl, type TrackingOptions } from '../../src/modules/tracking/instrument.js';
import { readToken } from '../../src/modules/tracking/tokens.js';
import { describeAgent, describeClient } from '../../src/modules/tracking/client.js';

const config = { PUBLIC_URL: 'https://track.example.com/', APP_SECRET: 'unit-test-secret-0123456789abcdef0123456789' };
const ALL: TrackingOptions = { opens: true, clicks: true, unsubscribe: false, unsubscribeHtml: null, unsubscribePlain: null };
const CLICKS: TrackingOptions = { ...ALL, opens: false };
const NONE: TrackingOptions = { opens: false, clicks: false, unsubscribe: false, unsubscribeHtml: null, unsubscribePlain: null };
const CLICK_URL = /https:\/\/track\.example\.com\/t\/c\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/g;

const html = (source: string, opts = CLICKS) => instrument({ html: source, text: null }, 'email1', opts, config).html!;
const text = (source: string, opts = CLICKS) => instrument({ html: null, text: source }, 'email1', opts, config).text!;

/** The targets the click links of an output were signed for, in order. */
function targets(out: string): string[] {
  return [...out.matchAll(CLICK_URL)].map((m) => {
    const token = readToken(config.APP_SECRET, 'click', m[1]);
    expect(token?.emailId).toBe('email1');
    return token!.url!;
  });
}

describe('instrument(): links in html', () => {
  it('rewrites http and https links, whatever the quoting and case', () => {
    const out = html(
      `<a href="https://a.example/x">a</a><A HREF='http://b.example/y'>b</A><a class=x href=https://c.example/z>c</a>`,
    );
    expect(targets(out)).toEqual(['https://a.example/x', 'http://b.example/y', 'https://c.example/z']);
    expect(out).not.toMatch(/a\.example|b\.example|c\.example/);
    // Markup around the links is untouched.
    expect(out).toMatch(/^<a href="https:\/\/track[^"]+">a<\/a><A HREF="https:\/\/track[^"]+">b<\/A><a class=x href="https:\/\/track[^"]+">c<\/a>$/);
  });

  it('signs the decoded URL, so entities in the source do not end up in the target', () => {
    const out = html(`<a href="https://a.example/p?x=1&amp;y=2&#38;z=3">go</a>`);
    expect(targets(out)).toEqual(['https://a.example/p?x=1&y=2&z=3']);
  });

  it('trims the spaces browsers ignore around a URL', () => {
    expect(targets(html(`<a href="  https://a.example/ \n">go</a>`))).toEqual(['https://a.example/']);
  });

  it('leaves mailto, tel, cid, anchors, relative links and non-link elements alone', () => {
    const source =
      `<link rel="stylesheet" href="https://cdn.example/s.css"><a href="mailto:a@b.example">m</a>` +
      `<a href="tel:+123">t</a><img src="cid:logo"><a href="cid:x">c</a><a href="#top">top</a>` +
      `<a href="/relative">r</a><a name="x">n</a><a href>e</a><a href="javascript:alert(1)">j</a>`;
    expect(html(source)).toBe(source);
  });

  it('ignores links in comments, scripts and unfinished tags', () => {
    const source = `<!-- <a href="https://c.example/">x</a> --><script>var s = '<a href="https://s.example/">';</script>`;
    expect(html(source)).toBe(source);
    expect(html(`<p>x</p><a href="https://a.example/"`)).toBe(`<p>x</p><a href="https://a.example/"`);
  });

  it('rewrites area and VML button links, and every link of the message', () => {
    const out = html(`<map><area href="https://m.example/"></map><v:roundrect href="https://v.example/"></v:roundrect><a href="https://m.example/">again</a>`);
    expect(targets(out)).toEqual(['https://m.example/', 'https://v.example/', 'https://m.example/']);
  });

  it('keeps non-ASCII targets exactly as written', () => {
    expect(targets(html(`<a href="https://ü.example/päth?q=é">x</a>`))).toEqual(['https://ü.example/päth?q=é']);
  });

  it('does nothing when click tracking is off', () => {
    const source = '<a href="https://a.example/">a</a>';
    expect(html(source, NONE)).toBe(source);
  });
});

describe('instrument(): the open pixel', () => {
  const pixel = /<img src="https:\/\/track\.example\.com\/t\/o\/([A-Za-z0-9_.-]+)" width="1" height="1" alt=""[^>]*>/;

  it('goes right before </body>', () => {
    const out = html('<html><body><p>Hi</p></BODY ></html>', { ...NONE, opens: true });
    const m = out.match(new RegExp(`^<html><body><p>Hi</p>${pixel.source}</BODY ></html>$`));
    expect(m).not.toBeNull();
    expect(readToken(config.APP_SECRET, 'open', m![1])).toEqual({ emailId: 'email1', url: null });
  });

  it('goes right before </body> after the links before it were rewritten, whatever their length', () => {
    // The pixel's place comes from the links' own scan: rewritten links before </body> move it,
    // one after it does not.
    const source =
      `<html><body><a href=https://a.example/?x=1&amp;y=2>a</a><p>x</p>` +
      `<a href="https://b.example/a-much-longer-path/than-the-first/one?with=a&amp;query=string">b</a></body >` +
      `<a href='https://late.example/'>late</a></html>`;
    const out = html(source, ALL);
    const m = out.match(
      new RegExp(`^<html><body><a href="[^"]+">a</a><p>x</p><a href="[^"]+">b</a>${pixel.source}</body ><a href="[^"]+">late</a></html>$`),
    );
    expect(m).not.toBeNull();
    expect(targets(out)).toEqual(['https://a.example/?x=1&y=2', 'https://b.example/a-much-longer-path/than-the-first/one?with=a&query=string', 'https://late.example/']);
  });

  it('goes at the end without a body tag, and never into text', () => {
    const out = instrument({ html: '<p>Hi</p>', text: 'Hi' }, 'email1', { ...NONE, opens: true }, config);
    expect(out.html).toMatch(new RegExp(`^<p>Hi</p>${pixel.source}$`));
    expect(out.text).toBe('Hi');
  });

  it('is not a click link', () => {
    expect(targets(html('<p>Hi</p>', ALL))).toEqual([]);
  });
});

describe('instrument(): unsubscribe', () => {
  const unsub = unsubscribeUrl(config, 'email1');

  it('signs the email id into a compact URL on PUBLIC_URL', () => {
    expect(unsub).toMatch(/^https:\/\/track\.example\.com\/t\/u\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(unsub.length).toBeLessThan(120);
    expect(readToken(config.APP_SECRET, 'unsubscribe', unsub.split('/').pop()!)).toEqual({ emailId: 'email1', url: null });
    // One kind's token is not accepted as another's.
    expect(readToken(config.APP_SECRET, 'open', unsub.split('/').pop()!)).toBeNull();
  });

  it('replaces the placeholder everywhere, footer or not, and never wraps it in a click link', () => {
    const out = instrument(
      { html: '<a href="{{unsubscribe}}">Leave</a> <a href="{{ unsubscribe }}?from=top">Leave</a>', text: 'Leave: {{unsubscribe}}' },
      'email1',
      CLICKS,
      config,
    );
    expect(out.html).toBe(`<a href="${unsub}">Leave</a> <a href="${unsub}?from=top">Leave</a>`);
    expect(out.text).toBe(`Leave: ${unsub}`);
  });

  it('appends the footers, with the link in place, and tracks other footer links', () => {
    const opts: TrackingOptions = {
      ...CLICKS,
      unsubscribe: true,
      unsubscribeHtml: '<p><a href="{{unsubscribe}}">Unsubscribe</a> · <a href="https://prefs.example/">Preferences</a></p>',
      unsubscribePlain: 'Unsubscribe: {{unsubscribe}}',
    };
    const out = instrument({ html: '<body><p>Hi</p></body>', text: 'Hi\n\n' }, 'email1', opts, config);
    expect(out.html).toMatch(new RegExp(`^<body><p>Hi</p><p><a href="${unsub}">Unsubscribe</a> · <a href="https://track[^"]+">Preferences</a></p></body>$`));
    expect(targets(out.html!)).toEqual(['https://prefs.example/']);
    expect(out.text).toBe(`Hi\n\nUnsubscribe: ${unsub}\n`);
  });

  it('adds no footer when the option is off or the template is null', () => {
    const templates = { unsubscribeHtml: '<p>{{unsubscribe}}</p>', unsubscribePlain: 'u {{unsubscribe}}' };
    expect(instrument({ html: '<p>a</p>', text: 'a' }, 'email1', { ...NONE, ...templates }, config)).toEqual({ html: '<p>a</p>', text: 'a' });
    expect(instrument({ html: '<p>a</p>', text: 'a' }, 'email1', { ...NONE, unsubscribe: true }, config)).toEqual({ html: '<p>a</p>', text: 'a' });
  });

  it('leaves null parts null', () => {
    expect(instrument({ html: null, text: null }, 'email1', { ...ALL, unsubscribe: true, unsubscribeHtml: 'x', unsubscribePlain: 'y' }, config)).toEqual({
      html: null,
      text: null,
    });
  });
});

describe('instrument(): URLs in text', () => {
  it('rewrites bare http(s) URLs and keeps the punctuation after them', () => {
    const out = text('See https://a.example/x. Or (http://b.example/y), or <https://c.example/z>!\nmailto:me@x.example');
    expect(targets(out)).toEqual(['https://a.example/x', 'http://b.example/y', 'https://c.example/z']);
    expect(out).toMatch(/^See https:\/\/track\S+\. Or \(https:\/\/track\S+\), or <https:\/\/track\S+>!\nmailto:me@x\.example$/);
  });

  it('keeps a closing parenthesis that belongs to the URL', () => {
    expect(targets(text('https://en.example/wiki/Foo_(bar) ok'))).toEqual(['https://en.example/wiki/Foo_(bar)']);
  });

  it('does nothing when click tracking is off', () => {
    expect(text('https://a.example/', NONE)).toBe('https://a.example/');
  });
});

describe('describing the client', () => {
  it('names the browser, system and kind of reader', () => {
    expect(
      describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'),
    ).toEqual({ ua_name: 'Chrome', ua_os: 'Windows', ua_type: 'desktop' });
    expect(
      describeAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'),
    ).toEqual({ ua_name: 'Mobile Safari', ua_os: 'iOS', ua_type: 'mobile' });
    expect(describeAgent('Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)')).toMatchObject({
      ua_name: 'Gmail',
      ua_type: 'webmail',
    });
    expect(describeAgent('YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html')).toMatchObject({
      ua_name: 'Yahoo Mail',
      ua_type: 'webmail',
    });
    expect(describeAgent('Outlook-iOS/723.4027091.prod.iphone (4.59.0)')).toEqual({ ua_name: 'Outlook', ua_os: 'iOS', ua_type: 'mobile' });
    expect(describeAgent('')).toEqual({ ua_name: 'unknown', ua_os: 'unknown', ua_type: 'desktop' });
  });

  it('finds the country of public addresses only', async () => {
    expect(await describeClient('8.8.8.8', 'x')).toMatchObject({ ip: '8.8.8.8', user_agent: 'x', country: 'US' });
    expect(await describeClient('::ffff:81.2.69.160', 'x')).toMatchObject({ ip: '81.2.69.160', country: 'GB' });
    expect((await describeClient('127.0.0.1', 'x')).country).toBe('unknown');
    expect((await describeClient('10.1.2.3', 'x')).country).toBe('unknown');
  });
});
