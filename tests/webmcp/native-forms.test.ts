// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createNativeSource } from '@/lib/webmcp/native-source';
import { formSubmittedWithoutResult } from '@/lib/webmcp/form-waits-for-person';

afterEach(() => {
  delete (document as unknown as { modelContext?: unknown }).modelContext;
  document.body.innerHTML = '';
});

/** Every `<form toolname=name>`, in the document and in open shadow roots, as the browser reads them. */
function formsNamed(name: string): HTMLFormElement[] {
  const roots: ParentNode[] = [document, ...[...document.querySelectorAll('*')].flatMap((element) => (element.shadowRoot ? [element.shadowRoot] : []))];
  return roots.flatMap((root) => [...root.querySelectorAll<HTMLFormElement>('form[toolname]')].filter((form) => form.getAttribute('toolname') === name));
}

/** The browser fills a form for a call: from now on it matches `:tool-form-active`, as in Chrome 156. */
function activate(form: HTMLFormElement): void {
  const ownMatches = form.matches.bind(form);
  form.matches = (selector: string) => selector === ':tool-form-active' || ownMatches(selector);
}

/**
 * The browser's API as Chrome 156 behaves: a form's tool is listed with the form's description; a
 * form without toolautosubmit is filled, marked active, said to be activated, and waits for the
 * person. A tool only in `scripted` is the page script's, with a form of its name or not.
 */
function installBrowserContext(names: string[], scripted: Record<string, string> = {}) {
  const context = Object.assign(new EventTarget(), {
    getTools: async () =>
      names.map((name) => ({ name, description: scripted[name] ?? formsNamed(name)[0]?.getAttribute('tooldescription') ?? 'A tool.', inputSchema: {}, source: window })),
    executeTool: (tool: { name: string }) => {
      // Chrome says it activated a script's tool too, and answers with what the script returned.
      queueMicrotask(() => context.dispatchEvent(Object.assign(new Event('toolactivated'), { toolName: tool.name })));
      if (tool.name in scripted) return Promise.resolve(`ran ${tool.name}`);
      for (const form of formsNamed(tool.name)) activate(form);
      return new Promise(() => {});
    },
  });
  (document as unknown as { modelContext: unknown }).modelContext = context;
}

const within = (promise: Promise<unknown>, ms: number) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
const form = '<form toolname="contact" tooldescription="Write to the shop."><textarea name="message"></textarea></form>';

describe('a browser form without toolautosubmit', () => {
  it('answers once the browser has filled it, in the document or in an open shadow root', async () => {
    document.body.innerHTML = form;
    installBrowserContext(['contact']);
    const inDocument = createNativeSource()!.execute('contact', { message: 'Hello' }, new AbortController().signal);
    expect(await within(inDocument, 200)).toBe('The form is filled in and waits for the person to submit it.');

    document.body.innerHTML = '';
    document.body.append(document.createElement('contact-widget'));
    document.querySelector('contact-widget')!.attachShadow({ mode: 'open' }).innerHTML = form;
    const inShadowRoot = createNativeSource()!.execute('contact', { message: 'Hello' }, new AbortController().signal);
    expect(await within(inShadowRoot, 200)).toBe('The form is filled in and waits for the person to submit it.');
  });

  it('is listed as a form in the document and in an open shadow root, found again once a panel asks', async () => {
    document.body.innerHTML = `${form}<div id="widget"></div>`;
    installBrowserContext(['contact', 'subscribe', 'search']);
    const source = createNativeSource()!;
    const sources = async () => Object.fromEntries((await source.list()).offered.map(({ tool, source }) => [(tool as { name: string }).name, source]));
    expect(await sources()).toEqual({ contact: 'declarative', subscribe: 'native', search: 'native' });
    // A shadow root given to a plain element after the first listing: nothing announces it.
    document.getElementById('widget')!.attachShadow({ mode: 'open' }).innerHTML =
      '<form toolname="subscribe" tooldescription="Subscribe." toolautosubmit><input name="email"></form>';
    source.lookAgain!();
    expect(await sources()).toEqual({ contact: 'declarative', subscribe: 'declarative', search: 'native' });
  });
});

describe('forms the browser ignores', () => {
  it('are told to the author with the likeliest reason, since the browser says nothing of them', async () => {
    document.body.innerHTML = [
      '<form toolname="contact" tooldescription="Write to the shop."></form>',
      '<form toolname="contact" tooldescription="Write again."></form>',
      '<form toolname="Book a table" tooldescription="Book."></form>',
      '<form toolname="subscribe"></form>',
    ].join('');
    installBrowserContext(['contact']);
    const { offered, refused } = await createNativeSource()!.list();
    // The browser's tool is the first form of its name, and is known as a form.
    expect(offered.map(({ tool, source }) => [(tool as { name: string }).name, source])).toEqual([['contact', 'declarative']]);
    expect(refused).toEqual([
      { name: 'contact', reason: 'The browser ignores this form: another form of this page has this name, and the browser offers only the first.' },
      { name: 'Book a table', reason: 'The browser ignores this form: its toolname must be 1 to 128 letters, digits, "_", "." or "-".' },
      { name: 'subscribe', reason: 'The browser ignores this form: it has no tooldescription, which the browser requires.' },
    ]);
  });
});

describe("a page script's tool that shares its name with a form", () => {
  it('answers with what the script returned, and is listed as the script\'s', async () => {
    document.body.innerHTML = form;
    installBrowserContext(['contact'], { contact: 'Write to the shop, with your order attached.' });
    const source = createNativeSource()!;
    expect((await source.list()).offered.map(({ source }) => source)).toEqual(['native']);
    expect(await within(source.execute('contact', { message: 'Hello' }, new AbortController().signal), 200)).toBe('ran contact');
  });
});

describe('a browser form with toolautosubmit that the page submits in its own script', () => {
  /** Chrome 156's refusal when the page called preventDefault() on the submit and never respondWith(). */
  const chromeRefusal = "The site has a programming error: it called preventDefault() on the 'submit' event, without also calling respondWith() with the tool result";
  function installSubmittingContext(error: string) {
    let submits = 0;
    (document as unknown as { modelContext: unknown }).modelContext = Object.assign(new EventTarget(), {
      getTools: async () => [{ name: 'place_order', description: 'Order.', inputSchema: {}, source: window }],
      executeTool: async () => {
        submits += 1;
        throw new DOMException(error, 'UnknownError');
      },
    });
    return () => submits;
  }

  it('answers that the page took the form without a word, once: told it failed, a model would order again', async () => {
    document.body.innerHTML = '<form toolname="place_order" tooldescription="Order." toolautosubmit><input name="item"></form>';
    const submits = installSubmittingContext(chromeRefusal);
    await expect(createNativeSource()!.execute('place_order', { item: 'mug' }, new AbortController().signal)).resolves.toBe(formSubmittedWithoutResult);
    expect(submits()).toBe(1);
  });

  it('passes any other error on, and the same words from a script tool (not a form) too', async () => {
    document.body.innerHTML = '<form toolname="place_order" tooldescription="Order." toolautosubmit><input name="item"></form>';
    installSubmittingContext('Form validation failed: item: Please fill out this field.');
    await expect(createNativeSource()!.execute('place_order', {}, new AbortController().signal)).rejects.toThrow('Form validation failed');
    document.body.innerHTML = '';
    installSubmittingContext(chromeRefusal);
    await expect(createNativeSource()!.execute('place_order', {}, new AbortController().signal)).rejects.toThrow('programming error');
  });
});

describe('a browser form with a field that has no name', () => {
  it('tells the author, and says which field refused a call by its label, not by its empty name', async () => {
    document.body.innerHTML = '<form toolname="contact_us" tooldescription="Write to us." toolautosubmit><label>Your name <input required></label><textarea name="message"></textarea></form>';
    (document as unknown as { modelContext: unknown }).modelContext = Object.assign(new EventTarget(), {
      getTools: async () => [{ name: 'contact_us', description: 'Write to us.', inputSchema: {}, source: window }],
      // Chrome 156's words: each field by its name, and this one has none.
      executeTool: async () => {
        throw new DOMException('Form validation failed: : Please fill out this field..', 'UnknownError');
      },
    });
    const source = createNativeSource()!;
    expect((await source.list()).offered.map(({ formNotes }) => formNotes)).toEqual([
      ['The field "Your name" has no name: no agent can fill it, and it is required, so every call fails. Give it a name.'],
    ]);
    await expect(source.execute('contact_us', { message: 'Hi' }, new AbortController().signal)).rejects.toThrow(
      /^The form did not accept the values \("Your name", a field without a name: .+\)\.$/,
    );
  });
});

describe("Chrome's schema of a form with a required select", () => {
  it('offers no placeholder ("Choose…") as a choice, as the extension\'s own reader does; an optional select keeps its empty choice', async () => {
    document.body.innerHTML = `<form toolname="ask" tooldescription="Ask the shop.">
      <select name="topic" required><option value="">Choose…</option><option value="sales">Sales</option></select>
      <select name="team"><option value="">Anyone</option><option value="care">Care</option></select>
    </form>`;
    // As Chrome 156 lists it: each option a choice, the placeholder included.
    const choice = (value: string, title: string) => ({ type: 'string', const: value, title });
    const inputSchema = {
      type: 'object',
      properties: {
        topic: { type: 'string', anyOf: [choice('', 'Choose…'), choice('sales', 'Sales')], enum: ['', 'sales'] },
        team: { type: 'string', anyOf: [choice('', 'Anyone'), choice('care', 'Care')], enum: ['', 'care'] },
      },
      required: ['topic'],
    };
    (document as unknown as { modelContext: unknown }).modelContext = Object.assign(new EventTarget(), {
      getTools: async () => [{ name: 'ask', description: 'Ask the shop.', inputSchema, source: window }],
      executeTool: async () => 'ok',
    });
    const [listed] = (await createNativeSource()!.list()).offered;
    const schema = (listed!.tool as { inputSchema: typeof inputSchema }).inputSchema;
    expect(schema.properties.topic).toEqual({ type: 'string', anyOf: [choice('sales', 'Sales')], enum: ['sales'] });
    expect(schema.properties.team).toEqual(inputSchema.properties.team);
    expect(schema.required).toEqual(['topic']);
    expect((listed!.tool as { name: string }).name).toBe('ask');
  });
});

describe("Chrome's schema of a form with a length limit or a date", () => {
  it('gains the lengths Chrome leaves out, said in words, where the model\'s schema keeps none; a date keeps its format alone', async () => {
    document.body.innerHTML = `<form toolname="book" tooldescription="Book.">
      <label>Notes <textarea name="notes" maxlength="40"></textarea></label>
      <input name="day" type="date">
      <label>At <input name="at" type="time"></label>
    </form>`;
    // As Chrome 156 lists it: no lengths; the date with its format and the page's words; a time's form as a pattern.
    const time = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
    const inputSchema = {
      type: 'object',
      properties: { notes: { type: 'string', description: 'Notes' }, day: { type: 'string', format: 'date', description: 'When' }, at: { type: 'string', format: time, description: 'At' } },
    };
    (document as unknown as { modelContext: unknown }).modelContext = Object.assign(new EventTarget(), {
      getTools: async () => [{ name: 'book', description: 'Book.', inputSchema, source: window }],
      executeTool: async () => 'ok',
    });
    const [listed] = (await createNativeSource()!.list()).offered;
    expect((listed!.tool as { inputSchema: typeof inputSchema }).inputSchema.properties).toEqual({
      notes: { type: 'string', maxLength: 40, description: '(at most 40 characters) Notes' },
      day: { type: 'string', format: 'date', description: 'When' },
      // Said once, in words, not as the pattern and then the words.
      at: { type: 'string', description: '(a time as HH:MM) At' },
    });
  });
});
