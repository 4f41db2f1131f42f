import { answerExtensionPages, askBackgroundFromPage } from '../messaging/extension-page-requests';

const messageType = 'local-models-changed';

/**
 * Options page → background: a model was downloaded (Chrome's built-in one) or stored ones were
 * deleted, so that the side panels say at once what the first request loads. Where no service
 * worker answers, there is no panel to tell.
 */
export async function tellModelsChanged(): Promise<void> {
  await askBackgroundFromPage({ type: messageType }).catch(() => undefined);
}

/** Background: hears the options page's news of models (see `tellModelsChanged`), from the extension's own pages only. */
export function hearModelsChanged(listener: () => void): () => void {
  return answerExtensionPages(
    (message) => (message as { type?: unknown } | null)?.type === messageType,
    async () => {
      listener();
      return { heard: true };
    },
    { heard: false },
  );
}
