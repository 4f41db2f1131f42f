import { describe, expect, it, vi } from 'vitest';
import { browserBrand, noBuiltInModelWords, unavailableInBrowserWords } from '@/lib/engines/prompt-api/browser-brand';
import { previewPromptApi } from '@/lib/engines/prompt-api/prompt-api-engine';
import { promptApiCannotRun } from '@/components/options/prompt-api-needs';

const chromium = [
  { brand: 'Chromium', version: '156' },
  { brand: 'Not/A)Brand', version: '24' },
];
const chrome = (version: string) => [{ brand: 'Not/A)Brand', version: '8' }, { brand: 'Chromium', version }, { brand: 'Google Chrome', version }];
const edge = [{ brand: 'Microsoft Edge', version: '140' }, { brand: 'Chromium', version: '140' }, { brand: 'Not=A?Brand', version: '99' }];

describe("Chrome's built-in model, where the browser has none to give", () => {
  it('knows Google Chrome, with its version, from Chromium and the browsers built on it', () => {
    expect(browserBrand(chromium)).toEqual({ name: 'Chromium', chrome: false, version: 156 });
    expect(browserBrand(chrome('137'))).toEqual({ name: 'Google Chrome', chrome: true, version: 137 });
    expect(browserBrand(edge)).toEqual({ name: 'Microsoft Edge', chrome: false, version: 140 });
    expect(browserBrand(undefined)).toBeUndefined();
    expect(browserBrand([])).toBeUndefined();
  });

  it('tells Chromium to use Google Chrome, an old Chrome to update, and a Chrome that has it turned off where to look', () => {
    expect(promptApiCannotRun('absent', browserBrand(chromium))).toEqual({
      why: "Chromium does not include Chrome's built-in model, which comes with Google Chrome 138 or later.",
      todo: 'Use Google Chrome, or pick another engine.',
    });
    expect(promptApiCannotRun('absent', browserBrand(chrome('120')))).toEqual({
      why: "This version of Chrome (120) has no built-in model (Chrome's Prompt API).",
      todo: 'Update Chrome to 138 or later, or pick another engine.',
    });
    expect(noBuiltInModelWords(browserBrand(chrome('156'))).why).toBe("This Chrome does not offer its built-in model (Chrome's Prompt API): a policy or a flag may have turned it off.");
    // Chromium lists the API, and says the model is unavailable: not this computer's fault.
    expect(promptApiCannotRun('unavailable', browserBrand(chromium))).toEqual({
      why: "Chromium says Chrome's built-in model is unavailable: it comes with Google Chrome only.",
      todo: 'Use Google Chrome, or pick another engine.',
    });
    // In Chrome, the computer: Chrome's needs are the reason.
    expect(unavailableInBrowserWords(browserBrand(chrome('156')))).toBeUndefined();
    expect(promptApiCannotRun('unavailable', browserBrand(chrome('156')))?.why).toMatch(/^Chrome says its built-in model cannot run on this computer\. It needs desktop Chrome/);
    expect(promptApiCannotRun('available', browserBrand(chromium))).toBeUndefined();
  });

  it("says so in the side panel's words too, before any request", async () => {
    vi.stubGlobal('navigator', { userAgentData: { brands: edge } });
    try {
      expect(await previewPromptApi(undefined)).toEqual({
        error: "Microsoft Edge does not include Chrome's built-in model, which comes with Google Chrome 138 or later.",
        hint: 'Use Google Chrome, or pick another engine in the options.',
      });
      const unavailable = { availability: async () => 'unavailable' as const } as unknown as Parameters<typeof previewPromptApi>[0];
      expect(await previewPromptApi(unavailable)).toEqual({
        error: "Microsoft Edge says Chrome's built-in model is unavailable: it comes with Google Chrome only.",
        hint: 'Use Google Chrome, or pick another engine in the options.',
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
