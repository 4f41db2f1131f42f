import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { createEngineChoice } from '@/components/options/engine-choice';
import { changedSettings, defaultSettings, type Settings, type SettingsChange } from '@/lib/settings';

/** The engine choice over settings kept in memory, noting what it did to the trial, the store and the server. */
function choiceOver(initial: Partial<Settings>, { failSaves = 0 } = {}) {
  let stored: Settings = { ...defaultSettings, ...initial };
  let failures = failSaves;
  const settings = signal<Settings | undefined>(undefined);
  const events: string[] = [];
  const chooseEngine = createEngineChoice({
    store: { load: async () => stored },
    settings,
    update: async (change: SettingsChange) => {
      // A save takes a moment, so a second choice made at once has to wait for it.
      await new Promise((resolve) => setTimeout(resolve, 5));
      // As the options model's update: a write that fails answers false (the page says why).
      if (failures > 0) {
        failures -= 1;
        return false;
      }
      stored = changedSettings(stored, change);
      settings.value = stored;
      events.push(`saved ${stored.engine}`);
      return true;
    },
    trial: { drop: () => events.push('trial dropped') },
    server: { reconnect: async (current) => void events.push(`asked the server as on ${current.engine}`) },
  });
  return { chooseEngine, stored: () => stored, events };
}

describe('createEngineChoice: choosing an engine on the options page', () => {
  it('gives the chosen engine the model picked for it before, and keeps the one left for its return', async () => {
    const choice = choiceOver({ engine: 'webllm', model: 'small-model', modelByEngine: { openai: 'server-model' } });
    await choice.chooseEngine('openai');
    expect(choice.stored()).toMatchObject({ engine: 'openai', model: 'server-model', modelByEngine: { webllm: 'small-model' } });
    expect(choice.events).toEqual(['trial dropped', 'saved openai', 'asked the server as on openai']);
  });

  it('starts an engine never chosen before on its default model', async () => {
    const choice = choiceOver({ engine: 'webllm', model: 'small-model' });
    await choice.chooseEngine('prompt-api');
    expect(choice.stored()).toMatchObject({ engine: 'prompt-api', model: '', modelByEngine: { webllm: 'small-model' } });
  });

  it('leaves the settings, the trial and the server alone when the engine chosen is the one stored', async () => {
    const choice = choiceOver({ engine: 'openai', model: 'server-model' });
    await choice.chooseEngine('openai');
    expect(choice.stored()).toMatchObject({ engine: 'openai', model: 'server-model' });
    expect(choice.events).toEqual([]);
  });

  it('makes choices one at a time in the order made, each reading what the one before saved', async () => {
    const choice = choiceOver({ engine: 'webllm', model: 'small-model' });
    const first = choice.chooseEngine('openai');
    const second = choice.chooseEngine('prompt-api');
    await Promise.all([first, second]);
    expect(choice.stored()).toMatchObject({ engine: 'prompt-api', modelByEngine: { webllm: 'small-model', openai: '' } });
    expect(choice.events).toEqual([
      'trial dropped',
      'saved openai',
      'asked the server as on openai',
      'trial dropped',
      'saved prompt-api',
      'asked the server as on prompt-api',
    ]);
  });

  it('keeps a model picked in another page between reading the settings and writing the choice', async () => {
    let stored: Settings = { ...defaultSettings, engine: 'webllm', model: 'small-model' };
    const chooseEngine = createEngineChoice({
      store: {
        load: async () => {
          const copy = stored;
          // A second options tab picks another WebLLM model just after this page read the settings.
          stored = changedSettings(stored, { model: 'picked-elsewhere' });
          return copy;
        },
      },
      settings: signal<Settings | undefined>(undefined),
      update: async (change: SettingsChange) => ((stored = changedSettings(stored, change)), true),
      trial: { drop: () => {} },
      server: { reconnect: async () => {} },
    });
    await chooseEngine('openai');
    expect(stored).toMatchObject({ engine: 'openai', model: '', modelByEngine: { webllm: 'picked-elsewhere' } });
  });

  it('lets a choice go ahead after the one before it failed to save', async () => {
    const choice = choiceOver({ engine: 'webllm' }, { failSaves: 1 });
    const first = choice.chooseEngine('openai');
    const second = choice.chooseEngine('prompt-api');
    await first;
    // The failed choice asked the server nothing: the engine in use had not changed.
    expect(choice.events.filter((event) => event.startsWith('asked'))).toEqual([]);
    await second;
    expect(choice.stored().engine).toBe('prompt-api');
  });
});
