// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorApp } from '@/components/inspector/inspector-app';
import { InspectorModel, type InspectorChannel } from '@/components/inspector/inspector-model';
import { inspectorRequestSchema, type InspectorEvent, type InspectorRequest } from '@/lib/messaging/inspector-protocol';
import { toolCallSchema } from '@/lib/messaging/protocol';
import type { PageTool, TabTools } from '@/lib/registry/types';
import { noAnswerOutput, toolOutputFromResult } from '@/lib/registry/tool-output-from-result';
import { typingPauseMs } from '@/components/shared/use-typing-pause';

/** A channel to a pretend background: the test plays the background's part. */
function fakeChannel() {
  const posted: InspectorRequest[] = [];
  let receive: (event: InspectorEvent) => void = () => {};
  const channel: InspectorChannel = { post: (request) => posted.push(request), onMessage: (listener) => (receive = listener), onDisconnect: () => {}, disconnect: () => {} };
  return { channel, posted, send: (event: InspectorEvent) => receive(event) };
}

const tool = (inputSchema: Record<string, unknown>, overrides: Partial<PageTool> = {}): PageTool => ({
  name: 'search_products',
  description: 'Search the catalogue by a key word.',
  inputSchema,
  origin: 'https://shop.example',
  frameId: 0,
  source: 'native',
  ...overrides,
});
const tabTools = (tools: PageTool[]): TabTools => ({ tabId: 5, url: 'https://shop.example/', origin: 'https://shop.example', tools, dropped: [], updatedAt: 1 });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The inspector showing one tool, its run form open, and the `others` listed after it. */
async function showRunForm(first: PageTool, others: PageTool[] = []) {
  const fake = fakeChannel();
  const model = new InspectorModel(5, () => fake.channel);
  model.open();
  const list = async (next: PageTool) => {
    fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([next, ...others]) });
    await tick();
  };
  await list(first);
  const root = document.createElement('div');
  document.body.append(root);
  render(<InspectorApp model={model} copyText={async () => {}} />, root);
  const details = root.querySelector('details')!;
  details.open = true;
  details.dispatchEvent(new Event('toggle'));
  await tick();
  // A field's control, found as a person finds it: by the label that names it.
  const control = <T extends Element>(name: string) => {
    const label = [...root.querySelectorAll<HTMLLabelElement>('.field > label')].find((candidate) => candidate.firstChild?.textContent === name);
    return (label ? document.getElementById(label.htmlFor) : null) as unknown as T;
  };
  const type = async (name: string, text: string) => {
    const input = control<HTMLInputElement>(name);
    input.value = text;
    input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
    await tick();
  };
  const runButton = () => [...root.querySelectorAll('button')].find((button) => button.textContent === 'Run in page')!;
  const stopButton = () => [...root.querySelectorAll('button')].find((button) => button.textContent === 'Stop');
  const submit = async () => {
    root.querySelector('form.runner')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await tick();
  };
  const sent = () => fake.posted.filter((request) => request.type === 'run-tool').map((request) => ('args' in request ? request.args : undefined));
  return { fake, model, root, list, control, type, runButton, stopButton, submit, sent };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a tool card', () => {
  it('names its Run and Schema sections after the tool, for a screen reader going through many tools', async () => {
    const { root } = await showRunForm(tool({ type: 'object', properties: {} }));
    expect([...root.querySelectorAll('summary')].map((summary) => summary.textContent)).toEqual(['Run search_products', 'Schema search_products']);
    expect(root.querySelector('summary .visually-hidden')?.textContent).toBe(' search_products');
  });
});

describe('a tool with an output schema', () => {
  const outputSchema = { type: 'object', properties: { found: { type: 'integer' } }, required: ['found'] };

  it('shows it in a section of its own, "Returns", as the page gave it, with its size', async () => {
    const { root } = await showRunForm(tool({ type: 'object', properties: {} }, { outputSchema }));
    const summaries = [...root.querySelectorAll('summary')];
    expect(summaries.map((summary) => summary.textContent)).toEqual(['Run search_products', 'Schema search_products', 'Returns search_products']);
    const returns = summaries[2]!.parentElement as HTMLDetailsElement;
    returns.open = true;
    returns.dispatchEvent(new Event('toggle'));
    await tick();
    expect(returns.querySelector('h4')?.textContent).toBe(`Output schema (${JSON.stringify(outputSchema).length} characters)`);
    expect(returns.querySelector('pre')?.textContent).toBe(JSON.stringify(outputSchema, null, 2));
  });

  it('checks a run’s result against it: a mismatch is a warning, heard with the result; a match is said quietly', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }, { outputSchema }));
    const runWith = async (event: { text: string; structuredContent?: unknown; structuredContentDropped?: true }) => {
      await form.submit();
      const runId = form.fake.posted.filter((request) => request.type === 'run-tool').at(-1)!.runId;
      const { text, ...beside } = event;
      form.fake.send({ type: 'run-result', runId, output: { text }, ...beside, durationMs: 5 });
      await tick();
      const check = form.root.querySelector('.run-result .run-check');
      const statuses = [...form.root.querySelectorAll('[role="status"]')].map((region) => region.textContent);
      return { check: check?.textContent, warning: check?.classList.contains('warning'), heard: statuses.includes('Result · took 5 ms · does not match the output schema') };
    };
    expect(await runWith({ text: '{"total":3}' })).toEqual({
      check: 'Warning: The result does not match the tool\'s output schema: "found" is missing.',
      warning: true,
      heard: true,
    });
    expect(await runWith({ text: '{"found":3}' })).toEqual({ check: "The result matches the tool's output schema.", warning: false, heard: false });
    expect(await runWith({ text: 'Found 3 products.', structuredContent: { found: 'three' } })).toEqual({
      check: 'Warning: The result\'s structuredContent does not match the tool\'s output schema: "found" must be integer, got "three".',
      warning: true,
      heard: true,
    });
    // Its structuredContent was left out on the way: the page is not blamed for having none.
    expect(await runWith({ text: 'Found 3 products.', structuredContentDropped: true })).toEqual({
      check: "Warning: The result was too long to carry whole, so it was not checked against the tool's output schema.",
      warning: true,
      heard: true,
    });
  });

  it('says nothing of a result where the tool has no output schema, or failed', async () => {
    const plain = await showRunForm(tool({ type: 'object', properties: {} }));
    await plain.submit();
    plain.fake.send({ type: 'run-result', runId: plain.fake.posted.find((request) => request.type === 'run-tool')!.runId, output: { text: 'Found 3.' }, durationMs: 5 });
    await tick();
    expect(plain.root.querySelector('.run-check')).toBeNull();
    document.body.innerHTML = '';
    const failing = await showRunForm(tool({ type: 'object', properties: {} }, { outputSchema }));
    await failing.submit();
    const runId = failing.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    failing.fake.send({ type: 'run-result', runId, output: { text: 'Out of stock.', isError: true }, durationMs: 5 });
    await tick();
    expect(failing.root.querySelector('.run-check')).toBeNull();
  });

  it('copies it with the tool as JSON', async () => {
    const { model } = await showRunForm(tool({ type: 'object', properties: {} }, { outputSchema }));
    let copied = '';
    await model.copyToolList(async (text) => void (copied = text));
    expect(JSON.parse(copied)).toEqual([expect.objectContaining({ name: 'search_products', outputSchema })]);
  });
});

describe('the run form', () => {
  const search = {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to look for' },
      includeArchived: { type: 'boolean', default: true },
      inStock: { type: 'boolean' },
      filters: { type: 'object', properties: { maxPrice: { type: 'number' }, status: { type: 'string' } } },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['query'],
  };

  it('sends only what the person set: optional editors show their template as a placeholder, booleans start at their default', async () => {
    const form = await showRunForm(tool(search));
    const filters = form.control<HTMLTextAreaElement>('filters');
    expect({ value: filters.value, placeholder: filters.placeholder }).toEqual({ value: '', placeholder: '{\n  "maxPrice": 0,\n  "status": ""\n}' });
    expect(form.control<HTMLSelectElement>('includeArchived').value).toBe('true');
    expect(form.control<HTMLSelectElement>('inStock').selectedOptions[0]?.textContent).toBe('(not set)');
    await form.type('query', 'mug');
    await form.submit();
    expect(form.sent()).toEqual([{ query: 'mug', includeArchived: true }]);
  });

  it('refuses what the agent would refuse where the schema refers to its parts: a referenced object given a number is not sent', async () => {
    const form = await showRunForm(
      tool({ type: 'object', $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, properties: { home: { $ref: '#/$defs/Address' } }, required: ['home'] }),
    );
    expect(form.control<HTMLTextAreaElement>('home').value).toBe('{\n  "city": ""\n}');
    await form.type('home', '12');
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('"home" must be object, got 12.');
    expect(form.sent()).toEqual([]);
    await form.type('home', '{"city": "Oslo"}');
    await form.submit();
    expect(form.sent()).toEqual([{ home: { city: 'Oslo' } }]);
  });

  it('says what an optional text, number or choice field left empty falls back to', async () => {
    const form = await showRunForm(
      tool({
        type: 'object',
        properties: { sort: { type: 'string', default: 'relevance' }, limit: { type: 'integer', default: 20 }, unit: { enum: ['C', 'F'], default: 'C' }, query: { type: 'string', default: 'mug' } },
        required: ['query'],
      }),
    );
    expect(form.control<HTMLSelectElement>('unit').selectedOptions[0]?.textContent).toBe("(not set: the tool's default is C)");
    // A choice the page wrote in Arabic or Hebrew reads right to left.
    expect([...form.control<HTMLSelectElement>('unit').options].slice(1).map((option) => option.getAttribute('dir'))).toEqual(['auto', 'auto']);
    expect(form.control<HTMLInputElement>('sort').placeholder).toBe("The tool's default: relevance");
    expect(form.control<HTMLInputElement>('limit').placeholder).toBe("The tool's default: 20");
    expect(form.control<HTMLInputElement>('query').placeholder).toBe('');
    await form.type('query', 'cap');
    await form.submit();
    expect(form.sent()).toEqual([{ query: 'cap' }]);
  });

  it('gives a date, time, e-mail or web address the browser\'s own input', async () => {
    const form = await showRunForm(
      tool({
        type: 'object',
        properties: { day: { type: 'string', format: 'date' }, at: { type: 'string', format: 'time' }, mail: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' }, code: { type: 'string', format: 'uuid' } },
      }),
    );
    expect(['day', 'at', 'mail', 'site', 'code'].map((name) => form.control<HTMLInputElement>(name).type)).toEqual(['date', 'time', 'email', 'url', 'textarea']);
    // Text typed in Arabic or Hebrew reads in its own direction.
    expect(form.control<HTMLTextAreaElement>('code').getAttribute('dir')).toBe('auto');
    await form.type('day', '2026-12-24');
    await form.submit();
    expect(form.sent()).toEqual([{ day: '2026-12-24' }]);
  });

  it("gives a form's date-and-time, month and week fields the browser's own inputs, as Chrome describes them", async () => {
    const form = await showRunForm(
      tool({
        type: 'object',
        properties: {
          when: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$' },
          month: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
          week: { type: 'string', format: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$' },
        },
      }),
    );
    expect(['when', 'month', 'week'].map((name) => form.control<HTMLInputElement>(name).type)).toEqual(['datetime-local', 'month', 'week']);
    // A colour input cannot be left empty: the box can, with a picker beside it that fills it.
    const painted = await showRunForm(tool({ type: 'object', properties: { colour: { type: 'string', format: '^#[0-9a-zA-Z]{6}$' } } }, { name: 'paint' }));
    const picker = painted.root.querySelector<HTMLInputElement>('input[aria-label="colour: pick a colour"]')!;
    expect([painted.control<HTMLTextAreaElement>('colour').value, picker.type]).toEqual(['', 'color']);
    // A colour input takes nothing else: a word would reach the page as black.
    await painted.type('colour', 'red');
    await painted.submit();
    expect(painted.sent()).toEqual([]);
    expect(painted.root.querySelector('.problem')!.textContent).toBe('"colour" is a colour: write it as # and six hexadecimal digits, such as #ff8800, or pick one.');
    expect(document.activeElement).toBe(painted.control('colour'));
    picker.value = '#a0b1c2';
    picker.dispatchEvent(new Event('input', { bubbles: true }));
    await tick();
    expect(painted.control<HTMLTextAreaElement>('colour').value).toBe('#a0b1c2');
    // Spaces around a colour typed go.
    await painted.type('colour', ' #A0B1C3 ');
    await painted.submit();
    expect(painted.sent()).toEqual([{ colour: '#A0B1C3' }]);
    // A JSON Schema date-time carries its zone, which no browser input writes: its box shows the shape.
    const zoned = await showRunForm(tool({ type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] }, { name: 'remind_me' }));
    expect(zoned.control<HTMLTextAreaElement>('at').placeholder).toBe('Such as 2026-12-24T18:30:00Z');
    await form.type('when', '2026-12-24T18:30');
    await form.submit();
    expect(form.sent()).toEqual([{ when: '2026-12-24T18:30' }]);
  });

  it('gives a list of choices a checkbox for each, in a group named by the field, and sends those checked', async () => {
    const choice = (value: string, title: string) => ({ type: 'string', const: value, title });
    const form = await showRunForm(
      tool({
        type: 'object',
        properties: {
          extras: { type: 'array', items: { type: 'string', anyOf: [choice('gift', 'Gift wrap'), choice('card', 'Card'), choice('bag', 'Bag')], enum: ['gift', 'card', 'bag'] }, uniqueItems: true, minItems: 1, description: 'What to add.' },
          sizes: { type: 'array', items: { enum: ['S', 'M'] }, uniqueItems: true, default: ['M'] },
        },
        required: ['extras'],
      }),
    );
    const group = form.root.querySelector<HTMLElement>('[role="group"][aria-labelledby]')!;
    expect(document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent).toBe('extras *');
    expect(group.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent)).toEqual(['What to add.', 'Check 1 at least. Sent as an empty list while no box is checked.']);
    const boxes = [...group.querySelectorAll('label')];
    expect(boxes.map((label) => label.textContent)).toEqual(['Gift wrap (gift)', 'Card (card)', 'Bag (bag)']);
    // An optional group says what nothing checked sends.
    const sizes = form.root.querySelectorAll<HTMLElement>('[role="group"][aria-labelledby]')[1]!;
    expect(document.getElementById(sizes.getAttribute('aria-describedby')!)?.textContent).toBe('Left out of the call while no box is checked, so the tool keeps its default, M; "(none)" sends an empty list.');

    // Nothing checked in a list that needs one: the check says so and the group takes focus.
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toMatch(/^"extras" /);
    expect(document.activeElement).toBe(group);
    expect(group.getAttribute('aria-describedby')?.split(' ').at(-1)).toBe(form.root.querySelector('.problem')?.id);
    expect([...group.querySelectorAll('input')].every((box) => box.getAttribute('aria-invalid') === 'true')).toBe(true);
    expect(form.sent()).toEqual([]);

    for (const index of [2, 0]) {
      boxes[index]!.querySelector('input')!.click();
      await tick();
    }
    await form.submit();
    expect(form.sent()).toEqual([{ extras: ['gift', 'bag'] }]);

    form.fake.send({ type: 'run-result', runId: form.fake.posted.find((request) => request.type === 'run-tool')!.runId, output: { text: 'Added.' }, durationMs: 5 });
    await tick();
    // "none" sends an empty list where nothing checked would leave the tool its own.
    sizes.querySelector<HTMLInputElement>('input[aria-label="sizes: none"]')!.click();
    await tick();
    expect([...sizes.querySelectorAll<HTMLInputElement>('input')].map((box) => box.disabled)).toEqual([true, true, false]);
    await form.submit();
    expect(form.sent().at(-1)).toEqual({ extras: ['gift', 'bag'], sizes: [] });
  });

  it('keeps the boxes checked whose options the page still offers when it changes them, and names the one it took away', async () => {
    const extras = (options: string[]) => tool({ type: 'object', properties: { extras: { type: 'array', items: { enum: options }, uniqueItems: true } } });
    const form = await showRunForm(extras(['gift', 'card', 'bag']));
    for (const box of [...form.root.querySelectorAll<HTMLInputElement>('[role="group"] input')].filter((input) => ['gift', 'bag'].includes(input.parentElement!.textContent!))) {
      box.click();
      await tick();
    }
    await form.list(extras(['bag', 'spa', 'card']));
    expect(form.root.querySelector('[data-testid="values-dropped"]')?.textContent).toBe('The page changed this tool: "extras" no longer offers gift, which was checked.');
    const checked = [...form.root.querySelectorAll<HTMLInputElement>('[role="group"] input')].filter((box) => box.checked).map((box) => box.parentElement!.textContent);
    expect(checked).toEqual(['bag']);
  });

  it('shows a choice that would read as another value as JSON: the text "1" beside the number 1, "", a space at its end', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { picks: { type: 'array', items: { enum: [1, '1', '', 'a ', 'true', '18:00'] }, uniqueItems: true } } }));
    const labels = [...form.root.querySelectorAll('[role="group"] label')].map((label) => label.textContent);
    expect(labels).toEqual(['1', '"1"', '""', '"a "', '"true"', '18:00', '(none)']);
  });

  it('fills in an optional editor’s template on request, and leaves the person in the editor', async () => {
    const form = await showRunForm(tool(search));
    form.root.querySelector<HTMLButtonElement>('button[aria-label="Fill in the template for tags"]')!.click();
    await tick();
    expect(form.control<HTMLTextAreaElement>('tags').value).toBe('[\n  ""\n]');
    expect(document.activeElement).toBe(form.control('tags'));
  });

  it('lets an optional boolean be left out again, or be false', async () => {
    const form = await showRunForm(tool(search));
    await form.type('query', 'mug');
    await form.type('includeArchived', '');
    await form.type('inStock', 'false');
    await form.submit();
    expect(form.sent()).toEqual([{ query: 'mug', inStock: false }]);
  });

  it('sends null where the schema allows it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { note: { type: ['string', 'null'] } }, required: ['note'] }));
    const toggle = form.root.querySelector<HTMLInputElement>('input[aria-label="note: null"]')!;
    toggle.click();
    await tick();
    expect(form.control<HTMLInputElement>('note').disabled).toBe(true);
    await form.submit();
    expect(form.sent()).toEqual([{ note: null }]);
  });

  it('sends a property named "__proto__" on to the page, through the checks of each message on the way', async () => {
    // A page's form may have a field of that name; JSON makes it a key like any other.
    const form = await showRunForm(tool(JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}, "q": {"type": "string"}}}')));
    await form.type('__proto__', 'blue');
    await form.type('q', 'mug');
    await form.submit();
    // The request as the background reads it, then the call as the page's content script reads it.
    const request = inspectorRequestSchema().parse(JSON.parse(JSON.stringify(form.fake.posted.at(-1))));
    if (request.type !== 'run-tool') throw new Error('no run');
    const call = toolCallSchema().parse(JSON.parse(JSON.stringify({ callId: 'call-1', name: request.name, args: request.args, timeoutMs: 1_000 })));
    expect(JSON.stringify(call.args)).toBe('{"__proto__":"blue","q":"mug"}');
  });

  it('says a schema of something other than an object has no fields because no call can meet it, not that the tool takes no arguments', async () => {
    const form = await showRunForm(tool({ type: 'string' }));
    expect(form.root.textContent).not.toContain('takes no arguments');
    expect(form.root.textContent).toContain("Its input schema is of a string, not an object, so it has no fields to fill: a call's arguments are always an object, which the schema refuses.");
    const none = await showRunForm(tool({ type: 'object', properties: {} }));
    expect(none.root.textContent).toContain('This tool takes no arguments.');
  });

  it('takes a root with alternatives as one JSON object', async () => {
    const form = await showRunForm(
      tool({ type: 'object', anyOf: [{ properties: { id: { type: 'integer' } }, required: ['id'] }, { properties: { email: { type: 'string' } } }] }),
    );
    expect(form.root.textContent).not.toContain('takes no arguments');
    expect(form.control<HTMLTextAreaElement>('arguments').value).toBe('{\n  "id": 0\n}');
    await form.type('arguments', '{"email": "ada@example.com"}');
    await form.submit();
    expect(form.sent()).toEqual([{ email: 'ada@example.com' }]);
  });
});

describe('the run form\'s number fields', () => {
  it('takes no comma in a whole number, saying so at the field, where Chrome would read "1,5" as 15', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { qty: { type: 'integer' } } }));
    const qty = form.control<HTMLInputElement>('qty');
    const comma = new InputEvent('beforeinput', { data: ',', inputType: 'insertText', bubbles: true, cancelable: true });
    qty.dispatchEvent(comma);
    expect(comma.defaultPrevented).toBe(true);
    expect(qty.validationMessage).toBe('Whole numbers only, without a comma.');
    // Said while the person types on ("1,5" goes in as 15), until the field is left.
    qty.dispatchEvent(new Event('input', { bubbles: true }));
    expect(qty.validationMessage).toBe('Whole numbers only, without a comma.');
    qty.dispatchEvent(new FocusEvent('blur'));
    expect(qty.validationMessage).toBe('');
  });
});

describe("the run form's check against the page's whole schema", () => {
  const coded = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] } }, required: ['code'] };

  it('says what the agent would send anyway, marks the field, and runs it only at "Run anyway"', async () => {
    const form = await showRunForm(tool(coded));
    await form.type('code', 'ab');
    await form.submit();
    expect(form.sent()).toEqual([]);
    const problem = form.root.querySelector('.problem')!;
    expect(problem.textContent).toBe('"code" must match ^[A-Z]{3}$. The agent does not check this, and would send it.');
    expect(problem.getAttribute('role')).toBe('alert');
    expect(form.control('code').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(form.control('code'));
    const anyway = [...form.root.querySelectorAll('button')].find((button) => button.textContent === 'Run anyway')!;
    expect(anyway.getAttribute('aria-label')).toBe('Run anyway: search_products');
    anyway.click();
    await tick();
    expect(form.sent()).toEqual([{ code: 'ab' }]);
    expect(form.root.querySelector('.problem')).toBeNull();
  });

  it('marks every field its message names, the focus on the first', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' }, notes: { type: 'string', maxLength: 5 }, name: { type: 'string' } } }));
    await form.type('code', 'ab');
    await form.type('notes', 'far too long');
    await form.type('name', 'Ada');
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('"code" must match ^[A-Z]{3}$. "notes" must have at most 5 characters. The agent does not check these, and would send them.');
    expect(['code', 'notes', 'name'].map((name) => form.control(name).getAttribute('aria-invalid'))).toEqual(['true', 'true', null]);
    expect(document.activeElement).toBe(form.control('code'));
  });

  it('takes "Run anyway" back once a value changes: the values it was for are no longer those in the form', async () => {
    const form = await showRunForm(tool(coded));
    await form.type('code', 'ab');
    await form.submit();
    expect([...form.root.querySelectorAll('button')].some((button) => button.textContent === 'Run anyway')).toBe(true);
    await form.type('code', 'abc');
    expect(form.root.querySelector('.problem')).toBeNull();
    expect([...form.root.querySelectorAll('button')].some((button) => button.textContent === 'Run anyway')).toBe(false);
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('"code" must match ^[A-Z]{3}$. The agent does not check this, and would send it.');
    expect(form.sent()).toEqual([]);
  });

  it('names a nested rule by its path, and runs at once what keeps every rule', async () => {
    const form = await showRunForm(tool(coded));
    await form.type('code', 'ABC');
    await form.type('address', '{}');
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('Missing required argument "address.zip". The agent does not check this, and would send it.');
    await form.type('address', '{"zip": "0150"}');
    await form.submit();
    expect(form.sent()).toEqual([{ code: 'ABC', address: { zip: '0150' } }]);
    expect([...form.root.querySelectorAll('button')].some((button) => button.textContent === 'Run anyway')).toBe(false);
  });

  it('says every rule broken at once, up to three, in the plural', async () => {
    const form = await showRunForm(tool(coded));
    await form.type('code', 'ab');
    await form.type('address', '{"zip": 1}');
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('"code" must match ^[A-Z]{3}$. "address.zip" must be string. The agent does not check these, and would send them.');
  });

  it("refuses what the agent refuses with no way around it: the agent's check comes first", async () => {
    const form = await showRunForm(tool(coded));
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('Missing required argument "code".');
    expect([...form.root.querySelectorAll('button')].some((button) => button.textContent === 'Run anyway')).toBe(false);
  });

  it('says which checks it could not make where the schema cannot be read whole, and runs what the agent would', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { code: { type: 'string', pattern: '[' } } }));
    expect(form.root.querySelector('[data-testid=partly-checked]')?.textContent).toMatch(/^Checked only as the agent checks \(required arguments, types, choices and ranges\): the rest of this schema could not be read \(Invalid regular expression/);
    await form.type('code', 'anything');
    await form.submit();
    expect(form.sent()).toEqual([{ code: 'anything' }]);
  });

  it('lets a tool be run whose schema requires a name it does not describe', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' } }, required: ['query', 'token'] }));
    await form.type('query', 'mugs');
    await form.type('token', '"abc"');
    await form.submit();
    expect(form.sent()).toEqual([{ query: 'mugs', token: 'abc' }]);
  });
});

describe('the run form of a page\'s form', () => {
  it('lists a select\'s choices by the words the page shows, with the value each sends', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { size: { type: 'string', enum: ['s', 'm'], anyOf: [{ const: 's', title: 'Small' }, { const: 'm', title: 'Medium' }] } } }));
    expect([...form.control<HTMLSelectElement>('size').options].map((option) => option.textContent)).toEqual(['(none)', 'Small (s)', 'Medium (m)']);
  });
});

describe('the run form when the tool changes', () => {
  it('gives a property added later the same start as a fresh form, and keeps what still fits', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' } } }));
    await form.type('query', 'mug');
    await form.list(
      tool({ type: 'object', properties: { query: { type: 'string' }, filters: { type: 'object', properties: { maxPrice: { type: 'number' } } } }, required: ['filters'] }),
    );
    expect(form.control<HTMLInputElement>('query').value).toBe('mug');
    expect(form.control<HTMLTextAreaElement>('filters').value).toBe('{\n  "maxPrice": 0\n}');
  });

  it('says which typed values the new schema left behind, and keeps the keyboard in the form where its field went', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { day: { type: 'string' }, email: { type: 'string' }, code: { type: 'string' } } }));
    const dropped = () => form.root.querySelector('[data-testid="values-dropped"]')?.textContent;
    expect(dropped()).toBe('');
    await form.type('day', 'Monday');
    await form.type('email', 'ada@example.com');
    form.control<HTMLInputElement>('code').focus();
    await form.type('code', 'A-7');
    await form.list(tool({ type: 'object', properties: { day: { type: 'string' }, note: { type: 'string' } } }));
    expect(dropped()).toBe('The page changed this tool: what was entered in "email" and "code" is gone, as the tool no longer takes them.');
    expect(form.control<HTMLInputElement>('day').value).toBe('Monday');
    expect(document.activeElement).toBe(form.control('day'));
    // A run starts from what the form holds now: the note has said its word.
    await form.submit();
    expect(dropped()).toBe('');
  });

  it('leaves focus alone where the person had moved it out of the form before its field went', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { day: { type: 'string' }, code: { type: 'string' } } }));
    form.control<HTMLInputElement>('code').focus();
    form.control<HTMLInputElement>('code').blur();
    await tick();
    await form.list(tool({ type: 'object', properties: { day: { type: 'string' } } }));
    expect(document.activeElement).toBe(document.body);
  });

  it('keeps, and says nothing of, a choice the page only moved and a number whose bounds it changed', async () => {
    const sized = (sizes: string[], maximum: number) => tool({ type: 'object', properties: { size: { type: 'string', enum: sizes }, qty: { type: 'integer', minimum: 1, maximum } } });
    const form = await showRunForm(sized(['S', 'M', 'L'], 10));
    await form.type('size', '1');
    await form.type('qty', '5');
    await form.list(sized(['XS', 'S', 'M', 'L'], 20));
    expect(form.root.querySelector('[data-testid="values-dropped"]')?.textContent).toBe('');
    expect(form.control<HTMLSelectElement>('size').selectedOptions[0]?.textContent).toBe('M');
    expect(form.control<HTMLInputElement>('qty').value).toBe('5');
  });

  it('keeps what was entered where the new kind of field takes it as it is: a number as text, text that is a number', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { price: { type: 'number' }, code: { type: 'string' } } }));
    await form.type('price', '2.5');
    await form.type('code', '42');
    await form.list(tool({ type: 'object', properties: { price: { type: 'string' }, code: { type: 'integer' } } }));
    expect(form.control<HTMLInputElement>('price').value).toBe('2.5');
    expect(form.control<HTMLInputElement>('code').value).toBe('42');
    expect(form.root.querySelector('[data-testid="values-dropped"]')?.textContent).toBe('');
  });

  it('starts a field whose kind changed afresh, so no stale text is read as a choice', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { size: { type: 'string' } } }));
    await form.type('size', 'large');
    await form.list(tool({ type: 'object', properties: { size: { type: 'string', enum: ['S', 'M', 'L'] } } }));
    expect(form.root.querySelector('[data-testid="values-dropped"]')?.textContent).toBe('The page changed this tool: what was entered in "size" is gone, as the tool now asks for something else there.');
    expect(form.control<HTMLSelectElement>('size').selectedIndex).toBe(0);
    await form.submit();
    expect(form.sent().map((args) => Object.keys(args ?? {}))).toEqual([[]]);
  });

  it('keeps what was typed when the tab’s tools are read again with the same schema', async () => {
    const schema = { type: 'object', properties: { query: { type: 'string' } } };
    const form = await showRunForm(tool(schema));
    await form.type('query', 'mug');
    await form.list(tool(structuredClone(schema)));
    expect(form.control<HTMLInputElement>('query').value).toBe('mug');
  });

  it('keeps what was typed when the page only rewords a property’s description', async () => {
    const described = (count: number) => tool({ type: 'object', properties: { query: { type: 'string', description: `Words (${count} items in cart)` } } });
    const form = await showRunForm(described(3));
    await form.type('query', 'blue mug');
    await form.list(described(4));
    expect(form.control<HTMLInputElement>('query').value).toBe('blue mug');
    expect(form.root.querySelector('.field-description')?.textContent).toBe('Words (4 items in cart)');
  });

  it("shows no description that only repeats the field's name, as the browser gives a form's checkbox its label", async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { exact: { type: 'boolean', description: ' Exact ' }, query: { type: 'string', description: 'query words' } } }));
    expect([...form.root.querySelectorAll('.field-description')].map((note) => note.textContent)).toEqual(['query words']);
    expect(form.control('exact').getAttribute('aria-describedby')).toBeNull();
  });
});

describe('the run form while its card is away', () => {
  const schema = { type: 'object', properties: { query: { type: 'string' } } };
  const toggleRun = async (root: HTMLElement) => {
    const details = root.querySelector<HTMLDetailsElement>('[data-tool="search_products"] details')!;
    details.open = !details.open;
    details.dispatchEvent(new Event('toggle'));
    await tick();
  };

  it('keeps what was typed when "Run" is closed and opened again', async () => {
    const form = await showRunForm(tool(schema));
    await form.type('query', 'blue mug');
    await toggleRun(form.root);
    expect(form.control('query')).toBeNull();
    await toggleRun(form.root);
    expect(form.control<HTMLInputElement>('query').value).toBe('blue mug');
  });

  it('keeps "Run" open and what was typed while the filter hides the card', async () => {
    const others = Array.from({ length: 8 }, (_, index) => tool({ type: 'object', properties: {} }, { name: `other_${index}` }));
    const form = await showRunForm(tool(schema), others);
    await form.type('query', 'blue mug');
    const filter = form.root.querySelector<HTMLInputElement>('[data-testid=tool-filter]')!;
    filter.value = 'other_3';
    filter.dispatchEvent(new Event('input'));
    await new Promise((resolve) => setTimeout(resolve, typingPauseMs + 10));
    expect(form.root.querySelector('[data-tool="search_products"]')).toBeNull();
    filter.value = '';
    filter.dispatchEvent(new Event('input'));
    await new Promise((resolve) => setTimeout(resolve, typingPauseMs + 10));
    expect(form.root.querySelector<HTMLDetailsElement>('[data-tool="search_products"] details')?.open).toBe(true);
    expect(form.control<HTMLInputElement>('query').value).toBe('blue mug');
  });

  it('keeps "Run" open and what was typed when one listing lacks the tool', async () => {
    const form = await showRunForm(tool(schema));
    await form.type('query', 'blue mug');
    form.fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool({ type: 'object', properties: {} }, { name: 'open_cart' })]) });
    await tick();
    expect(form.root.querySelector('[data-tool="search_products"]')).toBeNull();
    await form.list(tool(structuredClone(schema)));
    expect(form.root.querySelector<HTMLDetailsElement>('[data-tool="search_products"] details')?.open).toBe(true);
    expect(form.control<HTMLInputElement>('query').value).toBe('blue mug');
  });

  it('shows a failed check again with the form, without taking the focus to it', async () => {
    const form = await showRunForm(tool({ ...schema, required: ['query'] }));
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('Missing required argument "query".');
    await toggleRun(form.root);
    form.root.querySelector<HTMLElement>('summary')!.focus();
    await toggleRun(form.root);
    expect(form.root.querySelector('.problem')?.textContent).toBe('Missing required argument "query".');
    expect(document.activeElement).toBe(form.root.querySelector('summary'));
  });
});

describe('the run form for keyboard and screen reader users', () => {
  it('marks a field required, and ties its description to it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string', description: 'Words to look for' } }, required: ['query'] }));
    const input = form.control<HTMLInputElement>('query');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(form.root.querySelector(`[id="${input.getAttribute('aria-describedby')}"]`)?.textContent).toBe('Words to look for');
    expect(form.root.querySelector('.required')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('says why a property with a misspelt type gets a JSON editor, and ties that to it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { people: { type: 'integr', description: 'How many' } } }));
    const editor = form.control<HTMLTextAreaElement>('people');
    const describedBy = editor.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => form.root.querySelector(`[id="${id}"]`)?.textContent)).toEqual([
      'How many',
      '"integr" is not a JSON Schema type, so the form cannot tell what to ask: write the value as JSON.',
    ]);
  });

  it('after a failed check marks the field invalid, reads the problem with it, and puts focus on it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['limit'] }));
    form.runButton().focus();
    await form.submit();
    const input = form.control<HTMLInputElement>('limit');
    const problem = form.root.querySelector('.problem')!;
    expect(problem.textContent).toBe('Missing required argument "limit".');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(problem.id);
    expect(form.control('query').hasAttribute('aria-invalid')).toBe(false);
    expect(document.activeElement).toBe(input);

    // Another field changed leaves the problem as it was; the field it names, once changed, no longer reads as wrong.
    await form.type('query', 'mugs');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await form.type('limit', '3');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.getAttribute('aria-describedby')).toBeNull();
    expect(form.root.querySelector('.problem')).toBeNull();
  });

  it('links a problem to its field whatever the field is called: a long name, or one that ends as another field’s description would', async () => {
    const long = `shipping_address_line_${'x'.repeat(60)}`;
    const form = await showRunForm(
      tool({
        type: 'object',
        properties: { note: { type: 'string', description: 'A note.' }, 'note-description': { type: 'string' }, [long]: { type: 'integer' } },
        required: [long],
      }),
    );
    const ids = [...form.root.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(form.control('note-description')).toBeInstanceOf(HTMLTextAreaElement);
    await form.type(long, '1.5');
    await form.submit();
    const input = form.control<HTMLInputElement>(long);
    expect(form.root.querySelector('.problem')?.textContent).toBe(`"${long}" must be integer, got 1.5.`);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input);
  });

  it('keeps the line breaks of a string: Shift+Enter writes one, Enter runs the tool', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { note: { type: 'string' } }, required: ['note'] }));
    const note = form.control<HTMLTextAreaElement>('note');
    const key = (shiftKey: boolean) => note.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey, bubbles: true, cancelable: true }));
    await form.type('note', 'Leave it\nat the door');
    expect(key(true)).toBe(true);
    await tick();
    expect(form.sent()).toEqual([]);
    expect(key(false)).toBe(false);
    await tick();
    expect(form.sent()).toEqual([{ note: 'Leave it\nat the door' }]);
    expect(note.getAttribute('rows')).toBe('2');
  });

  it('shows no result of an earlier run under a check that failed: what is shown is why this run did not go', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }));
    await form.type('query', 'mug');
    await form.submit();
    form.fake.send({ type: 'run-result', runId: form.fake.posted.find((request) => request.type === 'run-tool')!.runId, output: { text: 'Found 3.' }, durationMs: 5 });
    await tick();
    expect(form.root.querySelector('.run-result')?.textContent).toContain('Found 3.');
    await form.type('query', '');
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('Missing required argument "query".');
    expect(form.root.querySelector('.run-result')).toBeNull();
  });

  it('says a number field whose text the browser cannot read is not a number, with focus on it, rather than leaving it out', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } }));
    await form.type('query', 'mug');
    // What Chrome does with "5-" or "1e": the field shows the text, but its value is "" and its validity says why.
    const limit = form.control<HTMLInputElement>('limit');
    Object.defineProperty(limit, 'validity', { configurable: true, value: { badInput: true } });
    await form.type('limit', '');
    form.runButton().focus();
    await form.submit();
    expect(form.root.querySelector('.problem')?.textContent).toBe('"limit" is not a number.');
    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(limit);
    expect(form.sent()).toEqual([]);
    Reflect.deleteProperty(limit, 'validity');
    await form.type('limit', '5');
    await form.submit();
    expect(form.sent()).toEqual([{ query: 'mug', limit: 5 }]);
  });

  it('moves focus from "Run in page" to Stop while the tool runs, and back when it ends', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    form.runButton().focus();
    // Each card has its own: a screen reader's list of buttons tells them apart by the tool.
    expect(form.runButton().getAttribute('aria-label')).toBe(`Run in page: ${form.runButton().closest('article')?.getAttribute('data-tool')}`);
    await form.submit();
    expect(form.runButton().disabled).toBe(true);
    expect(document.activeElement).toBe(form.stopButton());
    expect(form.stopButton()?.getAttribute('aria-label')).toMatch(/^Stop: \w+$/);
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    form.fake.send({ type: 'run-result', runId, output: { text: 'done' }, durationMs: 3 });
    await tick();
    expect(form.stopButton()).toBeUndefined();
    expect(document.activeElement).toBe(form.runButton());
  });

  it('stops a run on Escape in its form, as Stop says, and does nothing with Escape otherwise', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: { query: { type: 'string' } } }));
    const escape = async () => {
      const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
      form.control('query').dispatchEvent(event);
      await tick();
      return event.defaultPrevented;
    };
    expect(await escape()).toBe(false);
    await form.submit();
    expect(form.stopButton()?.getAttribute('aria-keyshortcuts')).toBe('Escape');
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    expect(await escape()).toBe(true);
    expect(form.fake.posted.at(-1)).toEqual({ type: 'cancel-run', runId });
  });

  it('says "No answer" of a run whose page or frame went before the tool answered, where no loaded page gives a result', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    await form.submit();
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    form.fake.send({ type: 'run-result', runId, output: noAnswerOutput('search', 2), durationMs: 4 });
    await tick();
    const result = form.root.querySelector('.run-result')!;
    expect(result.querySelector('.run-meta')?.textContent).toBe('No answer · took 4 ms');
    expect(result.querySelector('.run-text')?.textContent).toContain('The frame that offered "search" navigated, reloaded or was removed while it ran');
  });

  it('shows what the page a form loaded gives in place of "no result came back", where its card stays', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    await form.submit();
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    form.fake.send({ type: 'run-result', runId, output: toolOutputFromResult('search', null), durationMs: 4 });
    form.fake.send({ type: 'run-page-result', runId, pageResult: { url: 'https://shop.example/done', data: '{"ok":true}' } });
    await tick();
    const result = form.root.querySelector('.run-result')!;
    expect(result.querySelector('.run-meta')?.textContent).toBe('Result · took 4 ms');
    expect(result.querySelector('[data-testid="page-result"]')?.textContent).toBe('The page it loaded, https://shop.example/done, gives this result:{\n  "ok": true\n}');
    expect(result.textContent).not.toContain('no result came back');
  });

  it('announces a failed run with its error\'s first line, which says what went wrong', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    const statuses = () => [...form.root.querySelectorAll('[role="status"]')].map((region) => region.textContent);
    await form.submit();
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    const text = 'The tool did not answer within 2 s: it may still be running in the page.\nThe page\'s Console may say why.';
    form.fake.send({ type: 'run-result', runId, output: { text, isError: true }, durationMs: 2004 });
    await tick();
    expect(statuses()).toContain('Error · took 2004 ms: The tool did not answer within 2 s: it may still be running in the page.');
    expect(form.root.querySelector('.run-meta')?.textContent).toBe('Error · took 2004 ms');
  });

  it('announces a run from status regions already in the page: running, then its first line only, and a second copy again', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    const statuses = () => [...form.root.querySelectorAll('[role="status"]')].map((region) => region.textContent);
    // Present, and empty, before anything happens: a region added with its words is often not read.
    expect(statuses()).toEqual(['', '', '', '', '', '', '']);
    await form.submit();
    expect(statuses()).toContain('Running…');
    const runId = form.fake.posted.find((request) => request.type === 'run-tool')!.runId;
    form.fake.send({ type: 'run-result', runId, output: { text: '{"found":3}' }, durationMs: 12 });
    await tick();
    expect(statuses()).toContain('Result · took 12 ms');
    expect(statuses().join(' ')).not.toContain('found');
    await form.model.copyToolList(async () => {});
    expect(statuses()).toContain('Copied 1 tool as JSON.');
    // A second copy empties the region first, so the same words are heard again.
    let written = (): void => {};
    const copying = form.model.copyToolList(() => new Promise<void>((resolve) => (written = resolve)));
    await tick();
    expect(statuses()).not.toContain('Copied 1 tool as JSON.');
    written();
    await copying;
    await tick();
    expect(statuses()).toContain('Copied 1 tool as JSON.');
    // The same list told again keeps the words; a changed list takes them away.
    form.fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool({ type: 'object', properties: {} })]) });
    await tick();
    expect(statuses()).toContain('Copied 1 tool as JSON.');
    form.fake.send({ type: 'tab-tools', tabId: 5, tabTools: tabTools([tool({ type: 'object', properties: {} }, { name: 'open_cart' })]) });
    await tick();
    expect(statuses().join(' ')).not.toContain('Copied');
  });

  it('points the author to the page’s Console, names both causes and tells how to let a failure say why, where the browser hid it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    const failWith = async (text: string) => {
      await form.submit();
      const runId = form.fake.posted.filter((request) => request.type === 'run-tool').at(-1)!.runId;
      form.fake.send({ type: 'run-result', runId, output: { text, isError: true }, durationMs: 2 });
      await tick();
      return form.root.querySelector('.run-tip')?.textContent ?? null;
    };
    expect(await failWith('Tool was executed but the invocation failed. For example, the script function threw an error')).toBe(
      'Chrome does not pass on why the tool failed: it threw, or it returned something JSON cannot hold (a cycle, a BigInt). ' +
        "The page's Console, in this DevTools window, shows which. " +
        'The agent is not told either; to tell it why, return { content: [{ type: "text", text: "…" }], isError: true } instead of throwing.',
    );
    expect(await failWith('Out of stock: the blue mug')).toBeNull();
    // A polyfill passes the message on after the browser's words: nothing to tell the author.
    expect(await failWith('Tool was executed but the invocation failed. For example, the script function threw an error: Out of stock')).toBeNull();
  });

  it('heads the list of tools, so they are not read as part of the preview above it', async () => {
    const form = await showRunForm(tool({ type: 'object', properties: {} }));
    const list = form.root.querySelector('section.tools')!;
    expect(document.getElementById(list.getAttribute('aria-labelledby')!)?.textContent).toBe('Tools');
    expect(list.querySelector('h2')?.textContent).toBe('Tools');
  });
});
