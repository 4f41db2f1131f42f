// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { showOptionsPage } from './support/show-options-page';
import { changedSettings, defaultSettings, type Settings, type SettingsChange } from '../../lib/settings';

afterEach(() => {
  document.body.innerHTML = '';
});

describe("the options page's first read of the settings", () => {
  it('shows a change another page made while the read went on, not the older settings the read answers with', async () => {
    let value: Settings = { ...defaultSettings, maxSteps: 12 };
    const listeners = new Set<(settings: Settings) => void>();
    let answer!: () => void;
    const asRead = value;
    const store = {
      load: () => new Promise<Settings>((resolve) => (answer = () => resolve(asRead))),
      update: async (change: SettingsChange) => (value = changedSettings(value, change)),
      watch: (listener: (settings: Settings) => void) => (listeners.add(listener), () => void listeners.delete(listener)),
    };
    const { root } = showOptionsPage({ settings: store, caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(answer).toBeDefined());
    value = changedSettings(value, { maxSteps: 20 });
    listeners.forEach((listener) => listener(value));
    answer();
    await vi.waitFor(() => expect(root.querySelector('#behaviour-heading')).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 10));
    const steps = [...root.querySelectorAll('label.field')].find((label) => label.querySelector('span')?.textContent === 'Maximum steps per request')!.querySelector('input')!;
    expect(steps.value).toBe('20');
  });
});
