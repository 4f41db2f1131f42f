// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createNativeSource } from '@/lib/webmcp/native-source';
import { formSubmittedWithoutResult } from '@/lib/webmcp/form-waits-for-person';

afterEach(() => {
  delete (document as unknown as { modelContext?: unknown }).modelContext;
  document.body.innerHTML = '';
});

/** The browser's API as Chrome 156 behaves for a form without toolautosubmit: it fills it, says so, and waits for the person. */
function installBrowserContext(names: string[]) {
  const context = Object.assign(new EventTarget(), {
    getTools: async () => names.map((name) => ({ name, description: 'A form.', inputSchema: {}, source: window })),
    executeTool: (tool: { name: string }) => {
      queueMicrotask(() => context.dispatchEvent(Object.assign(new Event('toolactivated'), { toolName: tool.name })));
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
