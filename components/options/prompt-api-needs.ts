import { browserBrand, noBuiltInModelWords, unavailableInBrowserWords, type BrowserBrand } from '@/lib/engines/prompt-api/browser-brand';
import type { PromptApiState } from './options-types';

/**
 * What Chrome asks of a computer before it runs its built-in model, as Chrome's built-in AI
 * documentation gives it: said where Chrome says the model cannot run, so a person can tell whether
 * theirs could.
 */
const promptApiNeeds =
  'It needs desktop Chrome on Windows 10 or 11, macOS 13 or later, Linux or a Chromebook Plus; 22 GB free on the disk of Chrome\'s profile; ' +
  'and a graphics chip with more than 4 GB of memory, or 16 GB of RAM and 4 processor cores.';

/**
 * Why Chrome's built-in model cannot run, where Chrome says so (`absent`: no Prompt API at all;
 * `unavailable`: not on this computer), in this browser's words, and what to do: the engine choice
 * says `why`, the model's section and the welcome `why` and `todo`.
 */
export function promptApiCannotRun(state: PromptApiState, brand: BrowserBrand | undefined = browserBrand()): { why: string; todo: string } | undefined {
  if (state === 'absent') {
    const { why, todo } = noBuiltInModelWords(brand);
    return { why, todo: `${todo}, or pick another engine.` };
  }
  if (state !== 'unavailable') return undefined;
  const inBrowser = unavailableInBrowserWords(brand);
  if (inBrowser) return { why: inBrowser.why, todo: `${inBrowser.todo}, or pick another engine.` };
  return { why: `Chrome says its built-in model cannot run on this computer. ${promptApiNeeds}`, todo: 'Pick another engine.' };
}
