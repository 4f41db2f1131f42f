import { describe, expect, it } from 'vitest';
import { normalizeSiteOrigin } from '@/lib/settings/normalize-site-origin';

describe('normalizeSiteOrigin: what a site list takes', () => {
  it('refuses every address that is not http(s): their origin is "null", which would stand for every sandboxed page', () => {
    for (const text of ['ftp://files.example', 'file:///etc/passwd', 'data://x.example', 'chrome-extension://abcdefgh', 'ws://chat.example']) {
      expect(normalizeSiteOrigin(text), text).toBeUndefined();
    }
  });

  it('takes a site on this machine or a bare IP address typed without a scheme as http', () => {
    expect(normalizeSiteOrigin('192.168.1.10:8080')).toBe('http://192.168.1.10:8080');
    expect(normalizeSiteOrigin('app.localhost:3000')).toBe('http://app.localhost:3000');
    expect(normalizeSiteOrigin('[::1]:8377')).toBe('http://[::1]:8377');
    expect(normalizeSiteOrigin('intranet')).toBeUndefined();
  });

  it('takes a host without a dot where its scheme is written, as the side panel sends a page on a private network', () => {
    expect(normalizeSiteOrigin('http://wiki:8080/start')).toBe('http://wiki:8080');
    expect(normalizeSiteOrigin('https://intranet')).toBe('https://intranet');
  });

  it('takes a pasted page address with spaces in its path, and refuses spaces or line breaks in the host', () => {
    expect(normalizeSiteOrigin('https://files.example/My files/report 1.pdf')).toBe('https://files.example');
    expect(normalizeSiteOrigin('files.example/My files/?q=a b#c d')).toBe('https://files.example');
    expect(normalizeSiteOrigin('https://files.example\\My files\\x')).toBe('https://files.example');
    expect(normalizeSiteOrigin('//files.example/My files')).toBe('https://files.example');
    for (const text of ['a.example b.example/page', 'https://a.example\tb.example/', 'a.example\n/b', ' ', 'https:// /path']) {
      expect(normalizeSiteOrigin(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
