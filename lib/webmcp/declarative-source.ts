import { toolNotFound } from './adapters/tool-adapter';
import { fillToolForm } from './fill-tool-form';
import { formFieldNotes, formRefused, refusedByForm } from './form-controls';
import { formToolSchema } from './form-tool-schema';
import { formResultElsewhere, formTargetsElsewhere } from './form-target';
import { formSubmittedWithoutResult, formWaitsForPerson } from './form-waits-for-person';
import type { FormResponse } from './bridge-source';
import type { PageToolSource } from './page-tool-source';
import { ToolFormRoots } from './tool-form-roots';
import { watchToolForms } from './watch-tool-forms';

/**
 * `<form toolname>` tools, read by the content script where the browser does not offer them
 * itself: in the document and in open shadow roots. Running one fills the form; with
 * `toolautosubmit` it is submitted too.
 */
export function createDeclarativeSource(armFormResponse: () => FormResponse | undefined = () => undefined): PageToolSource {
  const roots = new ToolFormRoots();
  // Created when the content script starts (document_start), before any script of the page.
  const windowSubmits = relaySubmits(window);
  let changed: (() => void) | undefined;
  return {
    yieldsToEarlier: true,
    async list() {
      const offered = roots.forms().map((form) => ({
        tool: {
          name: form.getAttribute('toolname'),
          title: form.getAttribute('tooltitle') ?? undefined,
          description: form.getAttribute('tooldescription'),
          inputSchema: formToolSchema(form),
        },
        source: 'declarative' as const,
        formNotes: formFieldNotes(form),
      }));
      return { offered, refused: [] };
    },
    watch(onChange) {
      changed = onChange;
      return watchToolForms(roots, onChange);
    },
    // A shadow root attached to an element no observer hears about (any element may host one)
    // is found by walking the page again.
    lookAgain() {
      if (roots.walk()) changed?.();
    },
    async execute(name, args, signal) {
      const named = (): HTMLFormElement | undefined => roots.forms().find((candidate) => candidate.getAttribute('toolname') === name);
      // A root that came with no change seen (an unwatched source) is found by walking again.
      const form = named() ?? (roots.walk() ? named() : undefined);
      if (!form) throw toolNotFound(name);
      const filled = fillToolForm(form, args);
      // A submit the form refused sent nothing: the form is put back as it was.
      return submit(form, { armFormResponse, windowSubmits }, signal).catch((error: unknown) => {
        if (refusedByForm(error)) filled.undo();
        throw error;
      });
    },
  };
}

/** Hands the submits heard from now on to `onSubmit`; gives back how to stop. */
type SubmitListener = (onSubmit: (event: Event) => void) => () => void;

/**
 * One capture listener on `target`, added now, that hands each submit to the listener set at the
 * time: a page listener that stops the event (`stopImmediatePropagation()`) hides it only from
 * listeners added after its own.
 */
function relaySubmits(target: EventTarget): SubmitListener {
  let current: ((event: Event) => void) | undefined;
  target.addEventListener('submit', (event) => current?.(event), { capture: true });
  return (onSubmit) => {
    current = onSubmit;
    return () => (current = undefined);
  };
}

/** A capture listener on `target` from now on, as a SubmitListener. */
function listenFromNow(target: EventTarget): SubmitListener {
  return (onSubmit) => {
    target.addEventListener('submit', onSubmit, { capture: true });
    return () => target.removeEventListener('submit', onSubmit, { capture: true });
  };
}

/**
 * Without `toolautosubmit` the person submits. Otherwise the form is submitted: a page that gives
 * a result with `respondWith()` (through the page-world half of the bridge, `armFormResponse`)
 * answers with it; one that handles the submit itself without a result gets a plain confirmation;
 * one whose result opens in another tab says so; one that navigates gives `null`.
 */
async function submit(
  form: HTMLFormElement,
  { armFormResponse, windowSubmits }: { armFormResponse: () => FormResponse | undefined; windowSubmits: SubmitListener },
  signal: AbortSignal,
): Promise<string | null> {
  const submitter = form.querySelector<HTMLElement>('button:not([type]), button[type="submit"], input[type="submit"]');
  if (!form.checkValidity()) throw formRefused(form);
  if (!form.hasAttribute('toolautosubmit')) {
    submitter?.focus();
    return formWaitsForPerson;
  }
  // Heard in the capture phase at `window` by a listener added before any of the page's, so no
  // page listener can stop it first, and by one added now, as `document.open()` erases the
  // listeners added before it; read once the page's own listeners have run (dispatch is
  // synchronous), since a page that handles it may stop it there. A submit in a shadow root does
  // not leave it, so it is heard at that root.
  let submitEvent: Event | undefined;
  const root = form.getRootNode();
  const listeners = root instanceof ShadowRoot ? [listenFromNow(root)] : [windowSubmits, listenFromNow(window)];
  const stops = listeners.map((listen) =>
    listen((event) => {
      if (event.target === form) submitEvent = event;
    }),
  );
  const response = armFormResponse();
  let answer: ReturnType<FormResponse['settle']> | undefined;
  try {
    form.requestSubmit(submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null);
  } finally {
    for (const stop of stops) stop();
    // Disarmed whatever happened: the next submit of the page is not the agent's.
    answer = response?.settle(signal);
  }
  const given = await answer;
  if (given?.responded) return given.result;
  if (submitEvent?.defaultPrevented) return formSubmittedWithoutResult;
  // A result that opens in another tab leaves this page as it was: no page of its own comes here.
  return formTargetsElsewhere(form, submitter) ? formResultElsewhere : null;
}
