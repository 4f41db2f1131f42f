import { render } from 'preact';
import { OptionsModel } from '../../../components/options/options-model';
import type { OptionsDependencies } from '../../../components/options/options-types';
import { OptionsPage } from '../../../components/options/options-page';
import { changedSettings, defaultSettings, type Settings, type SettingsChange } from '../../../lib/settings';
import { fakeGpu } from '../../engines/support/fake-gpu';
import type { ModelLoadNews } from '../../../lib/agent/model-load-port';
import type { Channel } from '../../../lib/messaging/port-channel';

/** Settings kept in memory, as the options page reads and writes them through storage. */
export function memorySettings(initial: Partial<Settings> = {}): NonNullable<OptionsDependencies['settings']> {
  let value: Settings = { ...defaultSettings, ...initial };
  return {
    load: async () => value,
    update: async (change) => (value = changedSettings(value, change)),
    watch: () => () => {},
  };
}

/** Settings in memory that another page (the side panel, a second tab) may change while this one is open. */
export function sharedSettings(initial: Partial<Settings>) {
  let value: Settings = { ...defaultSettings, ...initial };
  const listeners = new Set<(settings: Settings) => void>();
  return {
    stored: () => value,
    changedElsewhere(change: SettingsChange) {
      value = changedSettings(value, change);
      for (const listener of listeners) listener(value);
    },
    store: {
      load: async () => value,
      update: async (change: SettingsChange) => (value = changedSettings(value, change)),
      watch: (listener: (settings: Settings) => void) => (listeners.add(listener), () => void listeners.delete(listener)),
    },
  };
}

const megabyte = 1024 * 1024;

/** The options page on a GPU without shader-f16, where Chrome's model cannot run unless a test says so. */
export function showOptionsPage(dependencies: OptionsDependencies) {
  const model = new OptionsModel({
    gpu: fakeGpu({ shaderF16: false }),
    estimateStorage: async () => ({ usage: 1400 * megabyte, quota: 100 * 1024 * megabyte }),
    languageModel: { availability: async () => 'unavailable', create: () => Promise.reject(new Error('unavailable')) },
    // The worker's engine, which no other page loads unless a test says so.
    connectModelStatus: quietChannel,
    hearModelLoading: () => () => {},
    ...dependencies,
  });
  const root = document.createElement('div');
  document.body.append(root);
  render(<OptionsPage model={model} />, root);
  return { model, root, text: () => root.textContent ?? '' };
}

/** A port to a worker that says nothing. */
function quietChannel(): Channel<never, ModelLoadNews> {
  return { post: () => {}, onMessage: () => {}, onDisconnect: () => {}, disconnect: () => {} };
}

export const click = (element: Element | null | undefined) => (element as HTMLElement).click();
export const buttonLabelled = (root: Element, label: string) => root.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
export const buttonNamed = (root: Element, text: string | RegExp) =>
  [...root.querySelectorAll('button')].find((button) => (typeof text === 'string' ? button.textContent === text : text.test(button.textContent ?? '')));
