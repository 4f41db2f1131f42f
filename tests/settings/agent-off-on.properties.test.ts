import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentOffBy, agentOffOn } from '@/lib/settings/agent-off-on';

// Cases: 10^4 by default; `npm run fuzz` asks for up to 10^6.
const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 10_000, 1_000_000);
const timeout = 10_000 + runs / 4;

/** The rule as the documentation of `agentOffOn` states it, entry by entry: what the look-up by host must agree with. */
function coveredBy(entry: string, origin: string): boolean {
  const read = (text: string) => {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:' ? { hostname: url.hostname.replace(/^\.+|\.$/g, ''), port: url.port } : undefined;
    } catch {
      return undefined;
    }
  };
  const site = read(origin);
  const off = read(entry);
  if (!site || !off) return entry === origin;
  return (off.port === '' || off.port === site.port) && (site.hostname === off.hostname || site.hostname.endsWith(`.${off.hostname}`));
}

// Hosts that share labels, so that subdomains, look-alikes and ports meet.
const label = fc.constantFrom('bank', 'example', 'www', 'online', 'notbank', 'a', 'xn--bcher-kva', '127', '0', '1');
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const address = fc.tuple(fc.constantFrom('http://', 'https://', 'ftp://', ''), fc.constantFrom('', '.'), host, fc.constantFrom('', '.'), fc.constantFrom('', ':80', ':443', ':3000', ':8377')).map((parts) => parts.join(''));

describe('agentOffOn and agentOffBy', () => {
  it('agree with the rule read entry by entry, for a list read once and for copies of it read again', { timeout }, () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(address, fc.constantFrom('null', '', 'bank.example')), { maxLength: 8 }), address, (list, origin) => {
        const expected = list.filter((entry) => coveredBy(entry, origin));
        for (const read of [list, list, [...list]]) {
          expect(agentOffOn(read, origin)).toBe(expected.length > 0);
          expect(agentOffBy(read, origin)).toEqual(expected);
        }
      }),
      { numRuns: runs },
    );
  });
});
