// What the tool-form watcher asks its MutationObserver for: split out so the watcher holds only
// when to look, and the list of attributes a listing reads has a home of its own.

/**
 * The attributes a form tool's listing reads (`createDeclarativeSource`, `formToolSchema`): a change to one
 * in place lists the tool again. `value`, `label` and the text of options and labels (character
 * data) matter because frameworks re-render choices in place: React keeps the radio or `<option>`
 * and sets its value and text. A text field's `pattern` is its schema's; a select's `size` says
 * whether its empty first choice is a placeholder, left out of the choices.
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
  'pattern',
  'size',
  'type',
  'form',
  'for',
  'id',
];

/** On a page without forms only an added form or shadow root can bring tools: what was added is all that is watched. */
const formlessOptions: MutationObserverInit = { childList: true, subtree: true };
const formOptions: MutationObserverInit = { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: watchedAttributes };

/** The options to observe a root with, on a page that has forms or not. */
export function toolFormObserverOptions(hasForms: boolean): MutationObserverInit {
  return hasForms ? formOptions : formlessOptions;
}
