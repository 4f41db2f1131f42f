/**
 * The document a navigation event names, or undefined where it names none: Chrome gives a
 * navigation cancelled before it committed (a download, a 204 answer) an id of zeros, and then
 * the page before stays.
 */
export function namedDocument(documentId: string | undefined): string | undefined {
  return documentId && !/^0+$/.test(documentId) ? documentId : undefined;
}
