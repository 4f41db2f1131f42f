import { openDB, type DBSchema } from 'idb';

/**
 * A trace file the viewer hands to the service worker by way of IndexedDB, which both read (the
 * extension's origin): a message carrying the file's text holds the viewer's page while Chrome
 * copies it (0.3–0.4 s for 38 MB), where storing the file itself is done off the page's thread.
 * Only the key crosses in the message; the worker takes the file out as it reads it.
 */
interface HandoffDatabase extends DBSchema {
  files: { key: string; value: { file: Blob; handedAt: number } };
}

const databaseName = 'trace-import-files';
/** A file the worker never took (the viewer closed at the wrong moment) goes at the next handoff after ten minutes. */
const forgottenAfterMs = 10 * 60 * 1000;

const open = () =>
  openDB<HandoffDatabase>(databaseName, 1, {
    upgrade: (database) => void database.createObjectStore('files'),
  });

/** Puts `file` where the worker reads it; resolves with the key to name it by. */
export async function handOverFile(file: Blob): Promise<string> {
  const database = await open();
  try {
    const key = crypto.randomUUID();
    const transaction = database.transaction('files', 'readwrite');
    const now = Date.now();
    for (let cursor = await transaction.store.openCursor(); cursor; cursor = await cursor.continue()) {
      if (now - cursor.value.handedAt > forgottenAfterMs) await cursor.delete();
    }
    await transaction.store.put({ file, handedAt: now }, key);
    await transaction.done;
    return key;
  } finally {
    database.close();
  }
}

/** The file handed over as `key`, taken out so that it is read once; undefined where there is none. */
export async function takeHandedFile(key: string): Promise<Blob | undefined> {
  const database = await open();
  try {
    const transaction = database.transaction('files', 'readwrite');
    const handed = await transaction.store.get(key);
    if (handed) await transaction.store.delete(key);
    await transaction.done;
    return handed?.file;
  } finally {
    database.close();
  }
}
