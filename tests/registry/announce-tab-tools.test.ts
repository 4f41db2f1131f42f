import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceTabTools, type TabToolsListener } from '@/lib/registry/announce-tab-tools';

afterEach(() => vi.restoreAllMocks());

describe('announceTabTools', () => {
  it('tells every listener, in the order they were added, even after one that throws, and logs that one', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard: string[] = [];
    const failure = new Error('The panel went away.');
    const listeners = new Set<TabToolsListener>([
      (tabId) => heard.push(`first ${tabId}`),
      () => {
        throw failure;
      },
      (tabId, tools) => heard.push(`last ${tabId} ${tools === undefined ? 'gone' : 'listed'}`),
    ]);
    announceTabTools(listeners, 7, undefined);
    expect(heard).toEqual(['first 7', 'last 7 gone']);
    expect(error).toHaveBeenCalledWith('A tab-tools listener failed:', failure);
  });
});
