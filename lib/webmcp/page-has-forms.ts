// Whether the page has forms at all: the tool-form watcher watches a page without forms far more
// cheaply, and asks this whenever forms may have come or gone.
import type { ToolFormRoots } from './tool-form-roots';

/** Whether the page has any form, in the document or in an open shadow root known so far. */
export function pageHasForms(roots: ToolFormRoots): boolean {
  return document.forms.length > 0 || roots.known().some((root) => root.querySelector('form') !== null);
}
