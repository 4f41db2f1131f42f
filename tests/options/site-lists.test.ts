import { describe, expect, it } from 'vitest';
import { createSiteLists } from '@/components/options/site-lists';
import type { SiteList } from '@/components/options/options-types';
import { agentOffOn, changedSettings, defaultSettings, type Settings, type SettingsChange } from '@/lib/settings';

/** The options page's site lists over settings kept in memory. */
function listsOver(initial: Partial<Settings> = {}) {
  let stored: Settings = { ...defaultSettings, ...initial };
  const lists = createSiteLists(async (change: SettingsChange) => {
    stored = changedSettings(stored, change);
    return true;
  });
  return { lists, stored: () => stored, refusal: (list: SiteList = 'disabledSites') => lists.failures.value[list]?.message };
}

describe('the site lists: what a typed site becomes', () => {
  it('keeps ".bank.example", as typed after "Leave out the *", as bank.example, so the agent is off there and on its subdomains', async () => {
    const page = listsOver();
    expect(await page.lists.add('disabledSites', '*.bank.example')).toBeUndefined();
    expect(page.refusal()).toMatch(/^Leave out the \*/);
    expect(await page.lists.add('disabledSites', '.bank.example')).toBe('https://bank.example');
    expect(page.refusal()).toBeUndefined();
    expect(page.stored().disabledSites).toEqual(['https://bank.example']);
    expect(agentOffOn(page.stored().disabledSites, 'https://bank.example')).toBe(true);
    expect(agentOffOn(page.stored().disabledSites, 'https://online.bank.example')).toBe(true);
  });

  it('keeps "bank.example." as bank.example, and an entry covers a page whose address ends in a dot', async () => {
    const page = listsOver();
    expect(await page.lists.add('disabledSites', 'bank.example.')).toBe('https://bank.example');
    expect(agentOffOn(page.stored().disabledSites, 'https://bank.example')).toBe(true);
    expect(agentOffOn(page.stored().disabledSites, 'https://bank.example.')).toBe(true);
    expect(agentOffOn(page.stored().disabledSites, 'https://www.bank.example.')).toBe(true);
  });

  it('refuses a pasted list, saying to add one site at a time, and keeps nothing of it', async () => {
    const page = listsOver();
    for (const text of ['a.example, b.example', 'a.example;b.example', 'a.example,b.example', 'bank.example,', 'a.example b.example', 'a.example\tb.example']) {
      expect(await page.lists.add('disabledSites', text), text).toBeUndefined();
      expect(page.refusal(), text).toBe(`One site at a time: add "${text.startsWith('a') ? 'a.example' : 'bank.example'}", then the next.`);
    }
    expect(page.stored().disabledSites).toEqual([]);
    // The site it names keeps its scheme: one on a network is refused without it.
    await page.lists.add('disabledSites', 'http://intranet:8080, http://wiki:8080');
    expect(page.refusal()).toBe('One site at a time: add "http://intranet:8080", then the next.');
    expect(await page.lists.add('disabledSites', 'http://intranet:8080')).toBe('http://intranet:8080');
  });

  it('refuses a host no site can have as not a web address', async () => {
    const page = listsOver();
    for (const text of ['"bank.example"', 'bank.example!', 'bank..example', '<bank.example>', '..bank.example']) {
      expect(await page.lists.add('disabledSites', text), text).toBeUndefined();
      expect(page.refusal(), text).toBe(`"${text}" is not a web address, such as shop.example.com.`);
    }
    expect(page.stored().disabledSites).toEqual([]);
  });

  it('says a port past 65535 is what makes an address of none, rather than suggest one refused as well', async () => {
    const page = listsOver();
    for (const text of ['localhost:99999', 'http://localhost:99999', 'shop.example:70000/cart']) {
      expect(await page.lists.add('disabledSites', text), text).toBeUndefined();
      expect(page.refusal(), text).toBe(`"${text}" is not a web address: a port goes up to 65535.`);
    }
    expect(await page.lists.add('disabledSites', 'localhost:65535')).toBe('http://localhost:65535');
  });

  it('asks for a site when the field is empty, and says back at most 80 characters of a long entry', async () => {
    const page = listsOver();
    for (const text of ['', '   ']) {
      expect(await page.lists.add('disabledSites', text)).toBeUndefined();
      expect(page.refusal()).toBe('Type a site first, such as shop.example.com.');
    }
    await page.lists.add('disabledSites', `${'x'.repeat(5_000)}!`);
    expect(page.refusal()).toBe(`"${'x'.repeat(79)}…" is not a web address, such as shop.example.com.`);
    expect(page.stored().disabledSites).toEqual([]);
  });

  it('still takes an IDN, an IP address, a bracketed IPv6 address and localhost', async () => {
    const page = listsOver();
    expect(await page.lists.add('disabledSites', 'bücher.de')).toBe('https://xn--bcher-kva.de');
    expect(await page.lists.add('disabledSites', '192.168.1.10:8080')).toBe('http://192.168.1.10:8080');
    expect(await page.lists.add('disabledSites', '[::1]:8377')).toBe('http://[::1]:8377');
    expect(await page.lists.add('disabledSites', 'localhost:3000')).toBe('http://localhost:3000');
    expect(await page.lists.add('disabledSites', 'https://my_wiki.corp.example/start')).toBe('https://my_wiki.corp.example');
  });
});

describe('the site lists: a port typed without a scheme', () => {
  it('takes "shop.example:80" as the plain-http site, so the agent is off on http://shop.example', async () => {
    const page = listsOver();
    expect(await page.lists.add('disabledSites', 'shop.example:80')).toBe('http://shop.example');
    expect(agentOffOn(page.stored().disabledSites, 'http://shop.example')).toBe(true);
    // Another port is covered by that entry already (it names none): on its own, it is https.
    expect(await page.lists.add('disabledSites', 'shop.example:8443')).toBeUndefined();
    expect(page.refusal()).toBe('The agent is already off on https://shop.example:8443: http://shop.example covers it already.');
    expect(await listsOver().lists.add('disabledSites', 'shop.example:8443')).toBe('https://shop.example:8443');
  });
});

describe('the site lists: what each list is told', () => {
  it('tells the allowed list that an entry there is one site exactly, where a * was typed', async () => {
    const page = listsOver();
    expect(await page.lists.add('allowedSites', '*.x.example')).toBeUndefined();
    expect(page.refusal('allowedSites')).toBe(
      'Leave out the *: add each site as its address, such as x.example or app.x.example (an entry here allows that site only, not its subdomains).',
    );
    expect(await page.lists.add('allowedSites', 'http://*.intranet.example:8080')).toBeUndefined();
    expect(page.refusal('allowedSites')).toBe(
      'Leave out the *: add each site as its address, such as http://intranet.example:8080 or http://app.intranet.example:8080 (an entry here allows that site only, not its subdomains).',
    );
    expect(await page.lists.add('allowedSites', '*')).toBeUndefined();
    expect(page.refusal('allowedSites')).toBe(
      'Leave out the *: add each site as its address, such as app.shop.example.com (an entry here allows that site only, not its subdomains).',
    );
  });

  it("says the person's own site back where a * was typed before it, on the list where the agent is off", async () => {
    const page = listsOver();
    expect(await page.lists.add('disabledSites', 'https://*.bank.example/login')).toBeUndefined();
    expect(page.refusal()).toBe(`Leave out the *: "bank.example" is enough (where the agent is off, it covers the site's subdomains too).`);
    expect(await page.lists.add('disabledSites', 'shop.*.example')).toBeUndefined();
    expect(page.refusal()).toBe(`Leave out the *: "shop.example.com" is enough (where the agent is off, it covers the site's subdomains too).`);
  });

  it('refuses port 0, from which no page is served', async () => {
    const page = listsOver();
    expect(await page.lists.add('allowedSites', 'http://bank.example:0')).toBeUndefined();
    expect(page.refusal('allowedSites')).toBe('"http://bank.example:0" is not a web address: no page is served from port 0.');
    expect(page.stored().allowedSites).toEqual([]);
  });

  it('keeps each list its own refusal: one refused on the other list leaves it in place', async () => {
    const page = listsOver();
    await page.lists.add('disabledSites', 'bank..example');
    await page.lists.add('allowedSites', 'a.example, b.example');
    expect(page.refusal('disabledSites')).toBe('"bank..example" is not a web address, such as shop.example.com.');
    expect(page.refusal('allowedSites')).toBe('One site at a time: add "a.example", then the next.');
    // A site taken clears its own list's refusal only.
    expect(await page.lists.add('allowedSites', 'a.example')).toBe('https://a.example');
    expect(page.refusal('allowedSites')).toBeUndefined();
    expect(page.refusal('disabledSites')).toBe('"bank..example" is not a web address, such as shop.example.com.');
  });

  it('adds no subdomain of a site the agent is already off on, saying which entry covers it', async () => {
    const page = listsOver({ disabledSites: ['https://bank.example'] });
    expect(await page.lists.add('disabledSites', 'https://www.bank.example/login?x=1')).toBeUndefined();
    expect(page.refusal()).toBe('The agent is already off on https://www.bank.example: https://bank.example covers its subdomains.');
    expect(page.stored().disabledSites).toEqual(['https://bank.example']);
    // The same site again is listed already, not refused; on the allowed list, each entry is its own site.
    expect(await page.lists.add('disabledSites', 'bank.example')).toBe('https://bank.example');
    expect(page.refusal()).toBeUndefined();
    await page.lists.add('allowedSites', 'shop.example');
    expect(await page.lists.add('allowedSites', 'app.shop.example')).toBe('https://app.shop.example');
    expect(page.stored().allowedSites).toEqual(['https://shop.example', 'https://app.shop.example']);
  });
});
