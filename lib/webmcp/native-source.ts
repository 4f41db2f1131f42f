import { createModelContextAdapter, isModelContextLike, type ModelContextLike } from './adapters/model-context-adapter';
import { createTestingApiAdapter, isTestingApiLike } from './adapters/testing-api-adapter';
import { readProperty, readToolName, type ToolAdapter } from './adapters/tool-adapter';
import { problemsTheBrowserMisses } from './check-form-value';
import { formFieldNotes, formRefused, refusedByForm } from './form-controls';
import { clearEarlierCall, rememberCall } from './earlier-call-fields';
import { formResultMaybeBlocked, formTargetsElsewhere } from './form-target';
import { formSubmittedWithoutResult, formWaitsForPerson } from './form-waits-for-person';
import type { DroppedToolReport } from './reported-tool';
import { toolNamePattern } from './tool-limits';
import { ToolFormRoots } from './tool-form-roots';
import { sourceFromAdapter, type PageToolSource } from './page-tool-source';
import { asTheFormSays } from './as-the-form-says';
import { namedError } from '../messaging/named-error';

/**
 * The browser's own WebMCP, which an isolated-world script sees directly (JavaScript polyfills
 * it cannot see). `document.modelContext` first; Chrome 146–151's testing API otherwise.
 * A native tool backed by a `<form toolname>` is marked declarative.
 */
export function createNativeSource(): PageToolSource | undefined {
  const context = readProperty(document, 'modelContext');
  if (isModelContextLike(context)) {
    const adapter = createModelContextAdapter(context, window, { nullIsNavigation: true });
    // The browser also reads forms in open shadow roots (web components). Those known when the
    // page is first listed are looked in; one attached later is found by walking again, when a
    // call does not find its form or a panel opens on the tab (`lookAgain`).
    const roots = new ToolFormRoots();
    const formFor = (name: string): HTMLFormElement | undefined => roots.forms().find((form) => form.getAttribute('toolname') === name);
    const execute: ToolAdapter['execute'] = (name, args, signal) => {
      const form = formFor(name) ?? (roots.walk() ? formFor(name) : undefined);
      // Only a form listed as the tool: a script's tool of the same name takes what it takes.
      const isForm = form !== undefined && declarative.has(name);
      const problems = isForm ? problemsTheBrowserMisses(form, args) : [];
      if (problems.length > 0) return Promise.reject(namedError('TypeError', problems.join(' ')));
      // The browser fills only the fields a call names: the rest would keep an earlier call's values.
      const earlier = isForm ? clearEarlierCall(form, args) : undefined;
      const running = adapter.execute(name, args, signal);
      if (!form) return running;
      const answered = running.catch((error: unknown) => {
        throw refusedInWords(form, error);
      });
      const result = form.hasAttribute('toolautosubmit') ? sentElsewhere(form, submittedByPage(answered)) : filledForPerson(context, name, form, answered);
      if (earlier) {
        // Once the browser has filled the form (a form for the person answers then, not when they
        // send it), what the call put there is the call's. One the form refused sent nothing: the
        // form is put back as it was.
        result.catch((error: unknown) => refusedByForm(error) && earlier.undo()).finally(() => rememberCall(form, earlier.before));
      }
      return result;
    };
    let forms = new Map<string | null, HTMLFormElement>();
    // The names of the tools the last listing found to be forms.
    let declarative = new Set<string>();
    // A page may register a tool in script and keep a form of the same name for browsers without
    // it (the browser keeps the script's tool): the form is the tool only where it says the same.
    const formOf = (tool: unknown): HTMLFormElement | undefined => {
      const form = forms.get(readToolName(tool) ?? null);
      return form && sameDescription(form, readProperty(tool, 'description')) ? form : undefined;
    };
    const source = sourceFromAdapter({ ...adapter, execute }, (tool) => (formOf(tool) ? 'declarative' : 'native'));
    return {
      ...source,
      async list() {
        // The browser offers the first form of a name: that one is the tool.
        forms = new Map(roots.forms().reverse().map((form) => [form.getAttribute('toolname'), form]));
        const listing = await source.list();
        const offered = listing.offered.map((entry) => {
          const form = formOf(entry.tool);
          if (!form) return entry;
          const formNotes = formFieldNotes(form);
          const tool = asTheFormSays(entry.tool, form);
          return { ...entry, tool, ...(formNotes.length > 0 ? { formNotes } : {}) };
        });
        const listed = new Set(listing.offered.map((entry) => readToolName(entry.tool)));
        declarative = new Set(listing.offered.filter((entry) => entry.source === 'declarative').map((entry) => readToolName(entry.tool) ?? ''));
        return { ...listing, offered, refused: [...listing.refused, ...formsIgnored(roots.forms(), listed)] };
      },
      lookAgain: () => void roots.walk(),
    };
  }
  const testing = readProperty(navigator, 'modelContextTesting');
  if (isTestingApiLike(testing)) return sourceFromAdapter(createTestingApiAdapter(testing), () => 'native');
  return undefined;
}

/** Whether the browser offers `<form toolname>` itself (true wherever it has the native API). */
export function browserReadsToolForms(): boolean {
  return isModelContextLike(readProperty(document, 'modelContext'));
}

/**
 * Chrome's refusal of a form's values names each field by its name, so a field without one reads
 * "Form validation failed: : Please fill out this field.". The form itself says which field it is.
 */
function refusedInWords(form: HTMLFormElement, error: unknown): unknown {
  const message = String(readProperty(error, 'message') ?? '');
  return /^Form validation failed/.test(message) && !form.checkValidity() ? formRefused(form) : error;
}

/**
 * A form a page already handled in its own script (it calls `preventDefault()` and sends the data
 * itself) and then gave `toolname`: Chrome submits it, the page's script acts, and the call fails
 * because no `respondWith()` gave a result. It answers as the extension's own form reader does for
 * such a page (see `formSubmittedWithoutResult`): told it failed, a model sends it again.
 */
function submittedByPage(running: Promise<string | null>): Promise<string | null> {
  return running.catch((error: unknown) => {
    const message = String(readProperty(error, 'message') ?? '');
    if (/preventDefault\(\)/.test(message) && /respondWith\(\)/.test(message)) return formSubmittedWithoutResult;
    throw error;
  });
}

/**
 * A form whose result opens in another tab leaves this page as it was: the browser's `null` (a
 * navigation) is not this page's, and no page of its own comes here. Chrome submits it without a
 * click on the page, which its pop-up blocker stops: the call says it may not have been sent.
 */
function sentElsewhere(form: HTMLFormElement, running: Promise<string | null>): Promise<string | null> {
  return running.then((result) => (result === null && formTargetsElsewhere(form) ? formResultMaybeBlocked : result));
}

/**
 * A form without `toolautosubmit` waits for the person: the browser fills it, focuses its submit
 * button and keeps the call open until they submit. Once it says so (`toolactivated`), the call
 * answers as the extension's own form reader does, and the browser's call stays open for the
 * person; a refusal before that (a value the form does not offer) is still the call's error.
 */
function filledForPerson(context: ModelContextLike, name: string, form: HTMLFormElement, running: Promise<string | null>): Promise<string | null> {
  return new Promise((resolve, reject) => {
    // Chrome fires it at `document.modelContext`; older versions at `window`.
    const targets: Array<Pick<EventTarget, 'addEventListener' | 'removeEventListener'>> = [window];
    if (typeof context.addEventListener === 'function' && typeof context.removeEventListener === 'function') targets.push(context as never);
    const onActivated = (event: Event): void => {
      // Chrome fires it for a script's tool too: one that shares its name with a form is not a
      // form waiting for the person, and its result is the call's.
      if (readProperty(event, 'toolName') === name && formIsActive(form)) settle(() => resolve(formWaitsForPerson));
    };
    const settle = (done: () => void): void => {
      for (const target of targets) target.removeEventListener('toolactivated', onActivated);
      done();
    };
    for (const target of targets) target.addEventListener('toolactivated', onActivated);
    running.then(
      (result) => settle(() => resolve(result)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** Whether the browser is filling this form for a call now; true where it cannot say. */
function formIsActive(form: HTMLFormElement): boolean {
  try {
    return form.matches(':tool-form-active');
  } catch {
    // A browser without the pseudo-class: the event is all there is to go by.
    return true;
  }
}

/** Whether the browser's listing of a tool describes it as the form does (or says nothing to tell them apart). */
function sameDescription(form: HTMLFormElement, listed: unknown): boolean {
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();
  const own = form.getAttribute('tooldescription');
  return typeof listed !== 'string' || own === null || words(listed) === words(own);
}

/**
 * The `<form toolname>`s the browser does not offer, each with the likeliest reason: it says
 * nothing of them, and an author would otherwise see their form silently missing.
 */
function formsIgnored(forms: readonly HTMLFormElement[], listed: ReadonlySet<string | undefined>): DroppedToolReport[] {
  const seen = new Set<string>();
  const ignored: DroppedToolReport[] = [];
  for (const form of forms) {
    const name = form.getAttribute('toolname') ?? '';
    const reason = seen.has(name) ? 'another form of this page has this name, and the browser offers only the first' : listed.has(name) ? undefined : whyIgnored(form, name);
    seen.add(name);
    if (reason) ignored.push({ name: name.slice(0, 128) || '(no name)', reason: `The browser ignores this form: ${reason}.` });
  }
  return ignored;
}

function whyIgnored(form: HTMLFormElement, name: string): string {
  if (!toolNamePattern.test(name)) return 'its toolname must be 1 to 128 letters, digits, "_", "." or "-"';
  if (!form.getAttribute('tooldescription')?.trim()) return 'it has no tooldescription, which the browser requires';
  return 'the browser did not say why';
}
