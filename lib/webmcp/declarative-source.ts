import { toolNotFound } from './adapters/tool-adapter';
import { fillToolForm } from './fill-tool-form';
import type { FormControl } from './form-controls';
import { formToolSchema } from './form-tool-schema';
import type { PageToolSource } from './page-tool-source';

const watchedAttributes = ['toolname', 'tooldescription', 'tooltitle', 'toolparamdescription', 'toolautosubmit', 'name', 'required', 'min', 'max', 'step', 'disabled', 'type'];

/**
 * `<form toolname>` tools, read by the content script where the browser does not offer them
 * itself. Running one fills the form; with `toolautosubmit` it is submitted too.
 */
export function createDeclarativeSource(): PageToolSource {
  return {
    yieldsToEarlier: true,
    async list() {
      const offered = toolForms().map((form) => ({
        tool: {
          name: form.getAttribute('toolname'),
          title: form.getAttribute('tooltitle') ?? undefined,
          description: form.getAttribute('tooldescription'),
          inputSchema: formToolSchema(form),
        },
        source: 'declarative' as const,
      }));
      return { offered, refused: [] };
    },
    watch(onChange) {
      const observer = new MutationObserver((records) => {
        if (records.some(touchesForms)) onChange();
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: watchedAttributes });
      return () => observer.disconnect();
    },
    async execute(name, args) {
      const form = toolForms().find((candidate) => candidate.getAttribute('toolname') === name);
      if (!form) throw toolNotFound(name);
      fillToolForm(form, args);
      return submit(form);
    },
  };
}

function toolForms(): HTMLFormElement[] {
  return Array.from(document.querySelectorAll<HTMLFormElement>('form[toolname]'));
}

/** Only changes in or around forms matter; everything else a page does is skipped cheaply. */
function touchesForms(record: MutationRecord): boolean {
  const target = record.target;
  if (target instanceof Element && target.closest('form')) return true;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return nodes.some((node) => node instanceof Element && (node.nodeName === 'FORM' || node.getElementsByTagName('form').length > 0));
}

/**
 * Without `toolautosubmit` the person submits. Otherwise the form is submitted: a page that
 * handles the submit itself gets a plain confirmation; one that navigates gives `null`.
 */
function submit(form: HTMLFormElement): string | null {
  const submitter = form.querySelector<HTMLElement>('button:not([type]), button[type="submit"], input[type="submit"]');
  if (!form.checkValidity()) {
    const problems = Array.from(form.elements)
      .filter((element): element is FormControl => isFormControl(element) && element.willValidate && !element.validity.valid)
      .map((element) => `${element.name.trim() || 'a field without a name'}: ${element.validationMessage}`);
    throw Object.assign(new Error(`The form did not accept the values (${problems.join('; ')}).`), { name: 'TypeError' });
  }
  if (!form.hasAttribute('toolautosubmit')) {
    submitter?.focus();
    return 'The form is filled in and waits for the person to submit it.';
  }
  // Heard in the capture phase, before any page listener can stop it; read once the page's own
  // listeners have run (dispatch is synchronous), since a page that handles it may stop it there.
  let submitEvent: Event | undefined;
  const onSubmit = (event: Event): void => {
    if (event.target === form) submitEvent = event;
  };
  window.addEventListener('submit', onSubmit, { capture: true });
  try {
    form.requestSubmit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null);
  } finally {
    window.removeEventListener('submit', onSubmit, { capture: true });
  }
  return submitEvent?.defaultPrevented ? 'The form was submitted.' : null;
}

function isFormControl(element: Element): element is FormControl {
  return element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;
}
