import { describe, expect, it } from 'vitest';
import { agentOffBy, agentOffOn, disabledSitesWith } from '../../lib/settings';

describe('agentOffOn', () => {
  it('covers a listed site on either scheme and all its subdomains, and nothing else', () => {
    const off = ['https://bank.example', 'http://localhost:8377'];
    expect(agentOffOn(off, 'https://bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://www.bank.example')).toBe(true);
    expect(agentOffOn(off, 'http://online.bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://notbank.example')).toBe(false);
    expect(agentOffOn(off, 'https://bank.example.evil.example')).toBe(false);
    expect(agentOffOn(off, 'http://localhost:8377')).toBe(true);
    expect(agentOffOn(off, 'http://localhost:3000')).toBe(false);
    expect(agentOffOn(off, 'null')).toBe(false);
  });

  it('covers every port of a site listed without one, and only its own port where it names one', () => {
    const off = ['http://127.0.0.1', 'https://bank.example', 'http://localhost:8377'];
    expect(agentOffOn(off, 'http://127.0.0.1:38733')).toBe(true);
    expect(agentOffOn(off, 'https://127.0.0.1:8443')).toBe(true);
    expect(agentOffOn(off, 'https://online.bank.example:8443')).toBe(true);
    expect(agentOffOn(off, 'http://127.0.0.2:38733')).toBe(false);
    expect(agentOffOn(off, 'http://localhost')).toBe(false);
    expect(agentOffOn(off, 'http://localhost:3000')).toBe(false);
    expect(agentOffBy(off, 'http://127.0.0.1:5173')).toEqual(['http://127.0.0.1']);
  });

  it('reads an entry an older version kept with a leading dot as the site it names', () => {
    const off = ['https://.bank.example'];
    expect(agentOffOn(off, 'https://bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://www.bank.example')).toBe(true);
    expect(agentOffOn(off, 'https://notbank.example')).toBe(false);
  });
});

describe('agentOffBy', () => {
  it('names the entries that cover a site, its parent domain and its other scheme included', () => {
    const off = ['https://bank.example', 'http://www.bank.example', 'https://shop.example'];
    expect(agentOffBy(off, 'https://www.bank.example')).toEqual(['https://bank.example', 'http://www.bank.example']);
    expect(agentOffBy(off, 'https://notbank.example')).toEqual([]);
  });
});

describe('disabledSitesWith, the list once the side panel turned the agent off or on for its site', () => {
  it('adds the site as the options page keeps it, once, and not where a wider entry covers it already', () => {
    expect(disabledSitesWith(['https://bank.example'], 'https://shop.example', true)).toEqual(['https://bank.example', 'https://shop.example']);
    expect(disabledSitesWith([], 'http://127.0.0.1:8080', true)).toEqual(['http://127.0.0.1:8080']);
    const off = ['https://bank.example'];
    expect(disabledSitesWith(off, 'https://bank.example', true)).toBe(off);
    expect(disabledSitesWith(off, 'https://www.bank.example', true)).toBe(off);
  });

  it('refuses a page without a web site: a file, a browser page, an opaque origin', () => {
    for (const origin of ['file://', 'null', '', 'chrome://newtab']) expect(() => disabledSitesWith([], origin, true), origin).toThrow(/web sites only/);
  });

  it('turning it on removes every entry that covers the site, and no other', () => {
    const off = ['https://bank.example', 'http://www.bank.example', 'https://shop.example', 'https://login.bank.example'];
    expect(disabledSitesWith(off, 'https://www.bank.example', false)).toEqual(['https://shop.example', 'https://login.bank.example']);
    expect(disabledSitesWith(off, 'https://shop.example', false)).toEqual(['https://bank.example', 'http://www.bank.example', 'https://login.bank.example']);
    expect(disabledSitesWith(off, 'https://tea.example', false)).toBe(off);
  });
});
