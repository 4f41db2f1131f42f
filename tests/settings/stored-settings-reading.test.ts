import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { agentOffOn, loadSettings, updateSettings, type Settings } from '@/lib/settings';
// The stored item itself, which the extension writes only through updateSettings (one change at a time).
import { settingsItem } from '@/lib/settings/settings-item';

beforeEach(() => fakeBrowser.reset());

/** Stores settings as something other than this extension may have written them (a hand edit, an import). */
const storeRaw = (value: Record<string, unknown>) => settingsItem.setValue(value as unknown as Settings);

describe('reading stored settings that are partly unreadable', () => {
  it('drops only the unreadable element of a site list, and the rest stays through the next write', async () => {
    await storeRaw({ disabledSites: ['https://bank.example', 5], allowedSites: ['https://shop.example', null] });
    const read = await loadSettings();
    expect(read.disabledSites).toEqual(['https://bank.example']);
    expect(read.allowedSites).toEqual(['https://shop.example']);
    expect(agentOffOn(read.disabledSites, 'https://bank.example')).toBe(true);

    await updateSettings({ temperature: 0.5 });
    const written = await loadSettings();
    expect(written.disabledSites).toEqual(['https://bank.example']);
    expect(agentOffOn(written.disabledSites, 'https://www.bank.example')).toBe(true);
  });

  it('drops only the unknown engine of the models kept for each engine', async () => {
    await storeRaw({ engine: 'webllm', modelByEngine: { openai: 'llama3.2:3b', ollama: 'x', 'prompt-api': 7 } });
    expect((await loadSettings()).modelByEngine).toEqual({ openai: 'llama3.2:3b' });
  });

  it('reads a site typed into the stored lists by hand as the options page keeps one, so that it matches', async () => {
    await storeRaw({ disabledSites: ['bank.example', 'https://bank.example/', 'intranet'], allowedSites: ['localhost:8080'] });
    const read = await loadSettings();
    expect(read.disabledSites).toEqual(['https://bank.example', 'intranet']);
    expect(agentOffOn(read.disabledSites, 'https://www.bank.example')).toBe(true);
    expect(read.allowedSites).toEqual(['http://localhost:8080']);
  });

  it('reads "https://…:80" where the agent is off, which an earlier version stored for a site typed with port 80, as the http site it meant', async () => {
    await storeRaw({ disabledSites: ['https://shop.example:80', 'https://bank.example:8443'], allowedSites: ['https://notes.example:80'] });
    const read = await loadSettings();
    expect(read.disabledSites).toEqual(['http://shop.example', 'https://bank.example:8443']);
    expect(agentOffOn(read.disabledSites, 'http://shop.example')).toBe(true);
    // A site allowed to run tools unasked is never widened to another: that entry stays as it is.
    expect(read.allowedSites).toEqual(['https://notes.example:80']);
  });

  it('drops a blank entry of a site list, which names no site and would show as an empty row', async () => {
    await storeRaw({ disabledSites: ['', 'https://bank.example', '   '], allowedSites: [' \t'] });
    const read = await loadSettings();
    expect(read.disabledSites).toEqual(['https://bank.example']);
    expect(read.allowedSites).toEqual([]);
  });

  it('drops the model of an unreadable engine with it, rather than pairing it with the default engine', async () => {
    await storeRaw({ engine: 'ollama', model: 'llama3.2:3b' });
    expect(await loadSettings()).toMatchObject({ engine: 'webllm', model: '' });
    await storeRaw({ engine: 'openai', model: 'llama3.2:3b' });
    expect(await loadSettings()).toMatchObject({ engine: 'openai', model: 'llama3.2:3b' });
  });

  it('gives the default engine, where an unreadable one falls back to it, the model kept for it', async () => {
    await storeRaw({ engine: 'ollama', model: 'llama3.2:3b', modelByEngine: { webllm: 'Qwen3-1.7B-q4f32_1-MLC', openai: 'qwen3:4b' } });
    expect(await loadSettings()).toMatchObject({ engine: 'webllm', model: 'Qwen3-1.7B-q4f32_1-MLC', modelByEngine: { openai: 'qwen3:4b' } });
  });
});
