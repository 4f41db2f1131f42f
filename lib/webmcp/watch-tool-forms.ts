import type { ToolFormRoots } from './tool-form-roots';

/**
 * The attributes a form tool's listing reads. `value`, `label` and the text of options and labels
 * (character data) matter because frameworks re-render choices in place: React keeps the radio or
 * `<option>` and sets its value and text.
 */
const watchedAttributes = [
  'toolname',
  'tooldescription',
  'tooltitle',
  'toolparamdescription',
  'toolautosubmit',
  'name',
  'value',
  'label',
  'aria-label',
  'required',
  'readonly',
  'disabled',
  'multiple',
  'min',
  'max',
  'step',
  'type',
  'form',
  'for',
  'id',
];

/**
 * How often a custom element name seen undefined is checked again: from a quarter second to
 * every 5 s (a name a page never defines costs one `matches` per 5 s).
 */
const firstUpgradeCheckMs = 250;
const lastUpgradeCheckMs = 5_000;

/**
 * Calls `onChange` when the page's tool forms may have changed: in the document and in every open
 * shadow root, those found later included (added with their host, attached while the page loads,
 * or made when a custom element is defined). Changes away from forms and labels are skipped cheaply.
 */
export function watchToolForms(roots: ToolFormRoots, onChange: () => void): () => void {
  // Most pages have no form at all: then only a form added can change the tools, and what each
  // change touched need not be looked at (a long article parses in thousands of records). Known
  // from the last look, since by the time a batch is read its changes are made.
  let hadForms = pageHasForms(roots);
  const observer = new MutationObserver((records) => {
    // While the parser adds the page, its shadow roots are looked for once, at DOMContentLoaded.
    const parsing = document.readyState === 'loading';
    let changed = false;
    for (const record of records) {
      if (!parsing) for (const node of Array.from(record.addedNodes)) if (node instanceof Element) changed = roots.scan(node) || changed;
      if (hadForms) changed ||= touchesForms(record, roots);
    }
    const hasForms = pageHasForms(roots);
    if (hasForms !== hadForms) changed = true;
    hadForms = hasForms;
    if (changed) onChange();
    scheduleUpgradeCheck();
  });
  const observe = (root: Document | ShadowRoot): void => {
    observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: watchedAttributes });
  };
  const stopFinding = roots.onFound(observe);
  observe(document);
  roots.known().forEach(observe);

  // Roots the parser or the page's first scripts attach, into elements already seen.
  const walkAgain = (): void => {
    if (roots.walk()) onChange();
    scheduleUpgradeCheck();
  };
  document.addEventListener('DOMContentLoaded', walkAgain);
  window.addEventListener('load', walkAgain);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = firstUpgradeCheckMs;
  function scheduleUpgradeCheck(): void {
    if (timer !== undefined || !roots.hasWaiting()) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (roots.upgraded()) {
        delay = firstUpgradeCheckMs;
        walkAgain();
        return;
      }
      delay = Math.min(delay * 2, lastUpgradeCheckMs);
      scheduleUpgradeCheck();
    }, delay);
  }
  scheduleUpgradeCheck();

  return () => {
    observer.disconnect();
    stopFinding();
    clearTimeout(timer);
    document.removeEventListener('DOMContentLoaded', walkAgain);
    window.removeEventListener('load', walkAgain);
  };
}

/** Whether the page has any form, in the document or in an open shadow root known so far. */
function pageHasForms(roots: ToolFormRoots): boolean {
  return document.forms.length > 0 || roots.known().some((root) => root.querySelector('form') !== null);
}

/** Only changes in or around forms matter; everything else a page does is skipped cheaply. */
function touchesForms(record: MutationRecord, roots: ToolFormRoots): boolean {
  if (record.attributeName === 'form') return true;
  const target = record.target instanceof Element ? record.target : record.target.parentElement;
  // A control, option or label outside its form still belongs to it (`form`, `for`).
  if (target && (target.closest('form, label') || ('form' in target && target.form instanceof HTMLFormElement))) return true;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return nodes.some((node) => node instanceof Element && (node.nodeName === 'FORM' || node.getElementsByTagName('form').length > 0 || roots.holdsKnownHost(node)));
}
