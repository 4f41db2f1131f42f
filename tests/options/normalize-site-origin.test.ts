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
});
