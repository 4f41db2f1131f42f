import { describe, expect, it } from 'vitest';
import { defaultSettings, followSettings, type Settings } from '@/lib/settings';

/** Settings read as the test answers, and watched as it tells. */
function slowStore() {
  let answer!: { resolve(settings: Settings): void; reject(error: Error): void };
  let listener!: (settings: Settings) => void;
  const store = {
    load: () => new Promise<Settings>((resolve, reject) => (answer = { resolve, reject })),
    watch: (heard: (settings: Settings) => void) => ((listener = heard), () => {}),
  };
  return { store, answer: () => answer, changed: (settings: Settings) => listener(settings) };
}

const followed = (store: ReturnType<typeof slowStore>['store']) => {
  const given: Settings[] = [];
  followSettings((settings) => given.push(settings), store);
  return given;
};
const later = () => new Promise((resolve) => setTimeout(resolve, 0));
const offOnBank = { ...defaultSettings, disabledSites: ['https://bank.example'] };

describe('followSettings', () => {
  it('gives the settings as read, then each change', async () => {
    const { store, answer, changed } = slowStore();
    const given = followed(store);
    answer().resolve(defaultSettings);
    await later();
    changed(offOnBank);
    expect(given).toEqual([defaultSettings, offOnBank]);
  });

  it('leaves out a read that answers after a change was heard: it may not hold that change', async () => {
    const { store, answer, changed } = slowStore();
    const given = followed(store);
    changed(offOnBank);
    answer().resolve(defaultSettings);
    await later();
    expect(given).toEqual([offOnBank]);
  });

  it('leaves out a read that fails, quietly', async () => {
    const { store, answer } = slowStore();
    const given = followed(store);
    answer().reject(new Error('storage is gone'));
    await later();
    expect(given).toEqual([]);
  });

  it('gives nothing more once stopped, the first read included', async () => {
    const { store, answer } = slowStore();
    const given: Settings[] = [];
    const stop = followSettings((settings) => given.push(settings), store);
    stop();
    answer().resolve(defaultSettings);
    await later();
    expect(given).toEqual([]);
  });
});
