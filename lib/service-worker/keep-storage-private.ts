/**
 * Closes `storage.local` (settings, the replay script, trace retention) to content scripts, which
 * Chrome otherwise lets read and write it: a page that subverted our content script could switch
 * the engine, point it at its own server, or allow its own site. Chrome keeps the level across
 * restarts; setting it at every start also covers an update from a version that did not. A
 * browser without the call keeps its default, and nothing here throws.
 */
export async function keepStoragePrivate(storage: typeof browser.storage): Promise<boolean> {
  const local = storage.local as { setAccessLevel?: (options: { accessLevel: string }) => Promise<void> };
  try {
    await local.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' });
    return local.setAccessLevel !== undefined;
  } catch (error) {
    console.warn('Could not close extension storage to content scripts:', error);
    return false;
  }
}
