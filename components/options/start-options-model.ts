// The page's first look, on its own: the settings come first, since the server and the rest read them.
import type { Signal } from '@preact/signals';
import { checkWebGpu, type WebGpuStatus } from '@/lib/engines/webgpu-check';
import type { Settings } from '@/lib/settings';
import type { OptionsDependencies } from './options-types';
import type { createPromptApiSetup } from './prompt-api-setup';
import type { createServerConnection } from './server-connection';
import type { createStoredModels } from './stored-models';

interface OptionsModelStart {
  dependencies: Pick<OptionsDependencies, 'gpu'>;
  store: Pick<NonNullable<OptionsDependencies['settings']>, 'load'>;
  settings: Signal<Settings | undefined>;
  webGpu: Signal<WebGpuStatus | undefined>;
  server: Pick<ReturnType<typeof createServerConnection>, 'reconnect'>;
  promptApi: Pick<ReturnType<typeof createPromptApiSetup>, 'check'>;
  storage: Pick<ReturnType<typeof createStoredModels>, 'refresh'>;
}

/** Loads the settings, asks the server set up before for its models, and looks at what this browser can run. */
export async function startOptionsModel({ dependencies, store, settings, webGpu, server, promptApi, storage }: OptionsModelStart): Promise<void> {
  const read = await store.load();
  // A change heard while the read went on (another page's) is newer than what it read.
  settings.value ??= read;
  void server.reconnect(settings.value);
  const [status] = await Promise.all([checkWebGpu(dependencies.gpu), promptApi.check(), storage.refresh()]);
  webGpu.value = status;
}
