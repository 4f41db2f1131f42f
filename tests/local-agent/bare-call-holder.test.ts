import { describe, expect, it } from 'vitest';
import { createBareCallHolder } from '../../lib/local-agent/bare-call-holder';

describe('createBareCallHolder', () => {
  it('holds white space until the first character shows the reply is prose, then lets all through', () => {
    const holder = createBareCallHolder();
    expect(holder.show(' \n')).toBe('');
    expect(holder.show('Mugs')).toBe(' \nMugs');
    expect(holder.show(' are here.')).toBe(' are here.');
    expect(holder.show('{')).toBe('{');
    expect(holder.held()).toBeUndefined();
  });

  it('holds a reply that opens with { or [ to its end', () => {
    for (const opening of ['{', '[']) {
      const holder = createBareCallHolder();
      expect(holder.show('  ')).toBe('');
      expect(holder.show(`${opening}"name"`)).toBe('');
      expect(holder.show(': "search"} Done.')).toBe('');
      expect(holder.held()).toBe(`  ${opening}"name": "search"} Done.`);
    }
  });

  it('shows nothing for empty prose and holds nothing before any', () => {
    const holder = createBareCallHolder();
    expect(holder.show('')).toBe('');
    expect(holder.held()).toBe('');
  });
});
