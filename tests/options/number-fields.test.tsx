// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { sharedSettings, showOptionsPage } from './support/show-options-page';
import type { Settings } from '../../lib/settings';

afterEach(() => {
  document.body.innerHTML = '';
});

async function showSteps(initial: Partial<Settings>) {
  const settings = sharedSettings(initial);
  const { root } = showOptionsPage({ settings: settings.store, caches: createFakeCacheStorage().storage });
  await vi.waitFor(() => expect(root.querySelector('#behaviour-heading')).not.toBeNull());
  const field = [...root.querySelectorAll('label.field')]
    .find((label) => label.querySelector('span')?.textContent === 'Maximum steps per request')!
    .querySelector('input')!;
  return { settings, field };
}

describe('a number field on the options page while the settings change elsewhere', () => {
  it('keeps a number being typed, and stores it when the field is left', async () => {
    const { settings, field } = await showSteps({ maxSteps: 12 });
    expect(field.value).toBe('12');
    field.focus();
    field.value = '20';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    settings.changedElsewhere({ disabledSites: ['https://bank.example'] });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(field.value).toBe('20');

    field.dispatchEvent(new Event('change', { bubbles: true }));
    field.blur();
    await vi.waitFor(() => expect(settings.stored().maxSteps).toBe(20));
    expect(field.value).toBe('20');
  });

  it('stores a number in range once typing pauses, so that closing the page does not lose it, and leaves one out of range to the field\'s leaving', async () => {
    const { settings, field } = await showSteps({ maxSteps: 12 });
    field.focus();
    field.value = '99';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect([settings.stored().maxSteps, field.value]).toEqual([12, '99']);
    field.value = '20';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await vi.waitFor(() => expect(settings.stored().maxSteps).toBe(20));
    expect(field.value).toBe('20');
    expect(document.activeElement).toBe(field);
  });

  it('drops the note on a number typed before as soon as one in range is typed, where the browser tells no change (the same number as at the focus)', async () => {
    const { field } = await showSteps({ maxSteps: 12 });
    const note = () => {
      let next = field.closest('label')!.nextElementSibling;
      while (next && !next.classList.contains('field-note')) next = next.nextElementSibling;
      return next?.textContent;
    };
    field.focus();
    field.value = '99';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    field.blur();
    await vi.waitFor(() => expect(note()).toBe('99 is out of range (1 to 30): set to 30.'));
    // Typed back to 30, the number at the focus: Chromium fires no change at the leaving.
    field.focus();
    field.value = '30';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.blur();
    await vi.waitFor(() => expect(note()).toBe(''));
  });

  it('goes back to the number the field had before, where a pause stored one on the way and the text is left unreadable', async () => {
    const { settings, field } = await showSteps({ maxSteps: 12 });
    field.focus();
    field.value = '1';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await vi.waitFor(() => expect(settings.stored().maxSteps).toBe(1));
    field.value = '';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    field.blur();
    await vi.waitFor(() => expect(settings.stored().maxSteps).toBe(12));
    expect(field.value).toBe('12');
  });

  it('shows the number stored elsewhere once the field is left with nothing typed, and at once when it has no focus', async () => {
    const { settings, field } = await showSteps({ maxSteps: 12 });
    field.focus();
    settings.changedElsewhere({ maxSteps: 15 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    field.blur();
    expect(field.value).toBe('15');

    settings.changedElsewhere({ maxSteps: 9 });
    await vi.waitFor(() => expect(field.value).toBe('9'));
  });

  it('follows the store again once a number is read, though the field keeps the focus (Enter, the spin buttons)', async () => {
    const { settings, field } = await showSteps({ maxSteps: 12 });
    field.focus();
    field.value = '20';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(settings.stored().maxSteps).toBe(20));
    settings.changedElsewhere({ maxSteps: 15 });
    await vi.waitFor(() => expect(field.value).toBe('15'));
    field.blur();
    expect(field.value).toBe('15');
  });
});
