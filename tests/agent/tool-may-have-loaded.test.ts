import { describe, expect, it, vi } from 'vitest';
import { toolMayHaveLoaded } from '@/lib/agent/tool-may-have-loaded';

describe('whether the last tool may have loaded the new document', () => {
  it('says yes for a call still running, without reading the clock', () => {
    const now = vi.fn(() => 1_000_000);
    expect(toolMayHaveLoaded({}, now)).toBe(true);
    expect(now).not.toHaveBeenCalled();
  });

  it('says yes for a call that ended less than 10 seconds ago, and no after', () => {
    const now = () => 1_000_000;
    expect(toolMayHaveLoaded({ endedAt: 1_000_000 - 9_999 }, now)).toBe(true);
    expect(toolMayHaveLoaded({ endedAt: 1_000_000 - 10_000 }, now)).toBe(false);
  });
});
