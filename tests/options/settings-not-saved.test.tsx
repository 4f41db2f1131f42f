// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { showOptionsPage } from './support/show-options-page';
import { changedSettings, defaultSettings, type Settings, type SettingsChange } from '../../lib/settings';

afterEach(() => {
  document.body.innerHTML = '';
});

const quota = 'QUOTA_BYTES quota exceeded';
const saidNotSaved = `This change was not saved: ${quota}. The page shows the settings as they are stored.`;

/** Settings whose writes fail while `full` holds, as `storage.local` does when it is full; each read gives a new object, as the real one parses one. */
function fillableSettings(initial: Partial<Settings>) {
  let value: Settings = { ...defaultSettings, ...initial };
  const state = { full: true };
  const store = {
    load: async () => ({ ...value }),
    update: async (change: SettingsChange) => {
      if (state.full) throw new Error(quota);
      return (value = changedSettings(value, change));
    },
    watch: () => () => {},
  };
  return { state, store, stored: () => value };
}

async function show(initial: Partial<Settings>) {
  const settings = fillableSettings(initial);
  const page = showOptionsPage({ settings: settings.store, caches: createFakeCacheStorage().storage });
  await vi.waitFor(() => expect(page.root.querySelector('#behaviour-heading')).not.toBeNull());
  const alert = () => page.root.querySelector('[data-testid=save-failure]');
  return { ...page, settings, alert };
}

function fieldLabelled(root: HTMLElement, text: string): HTMLInputElement | HTMLSelectElement {
  const label = [...root.querySelectorAll('label.field')].find((candidate) => candidate.querySelector('span')?.textContent === text)!;
  return label.querySelector('input, select')!;
}

describe('a change the browser could not save', () => {
  it('says so in an alert, shows the choice as stored again, and clears the alert once a change is saved', async () => {
    const { root, settings, alert } = await show({ confirmation: 'ask-unless-read-only' });
    const ask = fieldLabelled(root, 'Ask before a tool runs') as HTMLSelectElement;
    ask.value = 'ask-always';
    ask.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(alert()?.textContent).toBe(saidNotSaved));
    expect(alert()?.getAttribute('role')).toBe('alert');
    expect(ask.value).toBe('ask-unless-read-only');
    expect(settings.stored().confirmation).toBe('ask-unless-read-only');
    // A second failure in the same words is a new alert, which a screen reader says again.
    const first = alert();
    ask.value = 'ask-always';
    ask.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(alert()).not.toBe(first));
    expect(alert()?.textContent).toBe(saidNotSaved);

    settings.state.full = false;
    ask.value = 'ask-always';
    ask.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(settings.stored().confirmation).toBe('ask-always'));
    await vi.waitFor(() => expect(alert()).toBeNull());
  });

  it('puts the stored number back in a number field whose number was read (its change event)', async () => {
    const { root, alert } = await show({ maxSteps: 12 });
    const steps = fieldLabelled(root, 'Maximum steps per request') as HTMLInputElement;
    steps.focus();
    steps.value = '20';
    steps.dispatchEvent(new Event('input', { bubbles: true }));
    steps.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(alert()?.textContent).toBe(saidNotSaved));
    await vi.waitFor(() => expect(steps.value).toBe('12'));
  });

  it('neither says a site was added, nor empties its field; a site it could not remove stays listed', async () => {
    const { root, alert } = await show({ disabledSites: ['https://bank.example'] });
    const list = root.querySelector('[data-testid=disabledSites]')!;
    const input = list.querySelector('input')!;
    input.value = 'shop.example';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    list.querySelector('form')!.requestSubmit();
    await vi.waitFor(() => expect(alert()?.textContent).toBe(saidNotSaved));
    expect(list.querySelector('[data-testid=disabledSites-status]')?.textContent).toBe('');
    expect(input.value).toBe('shop.example');

    list.querySelector<HTMLButtonElement>('button[aria-label="Remove https://bank.example"]')!.click();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(list.textContent).toContain('https://bank.example');
    expect(list.querySelector('[data-testid=disabledSites-status]')?.textContent).toBe('');
  });
});
