import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchExtension, type LaunchedExtension } from './support';

// Chrome's own number field, typed into as a person does: what it makes of a comma is Chrome's.
describe.skipIf(!chromiumAvailable)('the options page’s number fields in Chromium', () => {
  let extension: LaunchedExtension;

  beforeAll(async () => {
    extension = await launchExtension();
  });
  afterAll(async () => {
    await extension?.close();
  });

  it('reads a decimal comma as a point, and takes no comma in a whole number, saying so until the field is left, rather than read "0,7" as 7 and "1,5" as 15 without a word', async () => {
    const options = await extension.openExtensionPage('options.html');
    const temperature = options.getByLabel('Temperature');
    await temperature.fill('');
    await temperature.pressSequentially('0,7');
    expect(await temperature.inputValue()).toBe('0.7');
    await temperature.press('Tab');

    // Typed on as a decimal comma: the comma is refused, saying so, and the number kept is said on leaving.
    const steps = options.getByLabel('Maximum steps per request');
    await steps.fill('');
    await steps.pressSequentially('1,');
    expect(await steps.inputValue()).toBe('1');
    const note = options.locator(`[id="${await steps.getAttribute('aria-describedby')}"]`);
    expect(await note.textContent()).toBe('Whole numbers only, without a comma.');
    await steps.pressSequentially('5');
    await options.waitForTimeout(700);
    expect(await note.textContent()).toBe('Whole numbers only, without a comma.');
    await steps.press('Tab');
    expect(await note.textContent()).toBe('Whole numbers only, without a comma. Set to 15.');

    // Stored once the field is left: the page read again shows what was kept.
    const stored = () => options.evaluate(async () => {
      const { settings } = await (globalThis as unknown as { chrome: { storage: { local: { get(key: string): Promise<Record<string, { temperature?: number; maxSteps?: number }>> } } } }).chrome.storage.local.get('settings');
      return [settings?.temperature, settings?.maxSteps];
    });
    await expect.poll(stored).toEqual([0.7, 15]);
    await options.reload();
    expect(await options.getByLabel('Temperature').inputValue()).toBe('0.7');
    expect(await options.getByLabel('Maximum steps per request').inputValue()).toBe('15');
    await options.close();
  });

  it('keeps a refusal boxed, and Remove underlined, in forced colours, where no background shows', async () => {
    const options = await extension.openExtensionPage('options.html');
    await options.emulateMedia({ forcedColors: 'active' });
    const field = options.getByRole('textbox', { name: /agent is off/i });
    await field.fill('bank..example');
    await field.press('Enter');
    const refusal = options.getByRole('alert').filter({ hasText: 'is not a web address' });
    await refusal.waitFor();
    expect(await refusal.evaluate((node) => getComputedStyle(node).borderTopStyle)).toBe('double');
    await field.fill('bank.example');
    await field.press('Enter');
    const remove = options.getByRole('button', { name: 'Remove https://bank.example' });
    expect(await remove.evaluate((node) => getComputedStyle(node).textDecorationLine)).toBe('underline');
    await options.close();
  });
});
