import { describe, expect, it } from 'vitest';
import { readLoadedPageResult } from '@/lib/registry/read-loaded-page-result';

const placed = { url: 'https://shop.example/orders/C-42', data: '{"orderNumber":"C-42"}' };

describe('readLoadedPageResult', () => {
  it('asks again until the new page\'s content script is there, and gives its result', async () => {
    let asked = 0;
    const ask = async () => {
      asked += 1;
      if (asked < 3) throw new Error('Could not establish connection. Receiving end does not exist.');
      return placed;
    };
    await expect(readLoadedPageResult(1, { ask })).resolves.toEqual(placed);
    expect(asked).toBe(3);
  });

  it('asks only a document after the form\'s own: a call may end before its new page commits', async () => {
    const documents = ['FORM', 'FORM', 'PLACED'];
    const asked: Array<string | undefined> = [];
    const result = readLoadedPageResult(1, {
      formDocumentId: 'FORM',
      topDocumentId: async () => documents.shift() ?? 'PLACED',
      ask: async (_tab, documentId) => {
        asked.push(documentId);
        return placed;
      },
    });
    await expect(result).resolves.toEqual(placed);
    expect(asked).toEqual(['PLACED']);
  });

  it('asks the document that committed, where the browser named it, and no other', async () => {
    const asked: Array<string | undefined> = [];
    const ask = async (_tab: number, documentId?: string) => {
      asked.push(documentId);
      return placed;
    };
    await expect(readLoadedPageResult(1, { documentId: 'PLACED', ask, topDocumentId: async () => 'SOMETHING-ELSE' })).resolves.toEqual(placed);
    expect(asked).toEqual(['PLACED']);
  });

  it('gives nothing for a page without a result, or one that does not answer in time', async () => {
    await expect(readLoadedPageResult(1, { ask: async () => null })).resolves.toBeUndefined();
    await expect(readLoadedPageResult(1, { ask: () => new Promise(() => {}), timeoutMs: 50 })).resolves.toBeUndefined();
  });
});
