// Which changes on a page with forms the tool-form watcher reads: its own file so the rule of what
// counts as "in or around a form" can be read and tested alone.
import type { ToolFormRoots } from './tool-form-roots';

/** Only changes in or around forms matter; everything else a page does is skipped cheaply. */
export function touchesForms(record: MutationRecord, roots: ToolFormRoots): boolean {
  if (record.attributeName === 'form') return true;
  const target = record.target instanceof Element ? record.target : record.target.parentElement;
  // A control, option or label outside its form still belongs to it (`form`, `for`).
  if (target && (target.closest('form, label') || ('form' in target && target.form instanceof HTMLFormElement))) return true;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return nodes.some((node) => node instanceof Element && (node.nodeName === 'FORM' || node.getElementsByTagName('form').length > 0 || roots.holdsKnownHost(node)));
}
