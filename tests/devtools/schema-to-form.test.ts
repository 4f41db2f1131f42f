import { validateArgs } from '@webmcp-agents/local-agent';
import { describe, expect, it } from 'vitest';
import { carryOverForm, fieldNamedIn, noChoices, formValuesToArgs, initialFieldValues } from '@/lib/devtools/form-values-to-args';
import { jsonTemplate } from '@/lib/devtools/json-template';
import { formSchema, schemaToForm } from '@/lib/devtools/schema-to-form';
import { fullSchemaCheck } from '@/lib/devtools/full-schema-check';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to look for' },
    limit: { type: 'integer', minimum: 1, maximum: 20 },
    price: { type: 'number', maximum: 99.5 },
    inStock: { type: 'boolean' },
    size: { type: 'string', enum: ['S', 'M', 'L'] },
    rating: { enum: [1, 2, 3] },
    address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer', minimum: 1000 } }, required: ['city'] },
    tags: { type: 'array', items: { type: 'string', enum: ['new', 'sale'] } },
    note: { type: ['string', 'null'] },
    anything: {},
  },
  required: ['query', 'size'],
};

/** What pressing "Run in page" on an untouched form (but for `typed`) sends. */
const untouched = (toolSchema: Record<string, unknown>, typed: Record<string, string | boolean | null> = {}) => {
  const fields = schemaToForm(toolSchema);
  return formValuesToArgs(fields, { ...initialFieldValues(fields), ...typed });
};

describe('schemaToForm: the run form of a tool', () => {
  it('names the choices of a select or radio group as the page shows them, where its schema says (Chrome writes a title beside each value)', () => {
    const sized = {
      type: 'object',
      properties: {
        size: { type: 'string', enum: ['s', 'm'], anyOf: [{ const: 's', title: 'Small' }, { const: 'm', title: 'Medium' }] },
        plain: { type: 'string', enum: ['a', 'b'] },
      },
    };
    expect(schemaToForm(sized)).toEqual([
      { name: 'size', required: false, kind: 'select', options: ['s', 'm'], titles: ['Small', 'Medium'] },
      { name: 'plain', required: false, kind: 'select', options: ['a', 'b'] },
    ]);
  });

  it('gives a number field the steps its schema asks for, counted from a multiple as JSON Schema counts them', () => {
    const steps = {
      type: 'object',
      properties: {
        price: { type: 'number', multipleOf: 0.5 },
        boxes: { type: 'integer', multipleOf: 5, minimum: 10 },
        // From 1, a spinner of fives would offer 1, 6, 11, none of them a multiple of 5: it starts at 5.
        odd: { type: 'integer', multipleOf: 5, minimum: 1 },
        quarters: { type: 'number', multipleOf: 0.25, minimum: 0.1 },
        // A whole number that is a multiple of 2.5 is one of 5; of 0.5, any.
        fives: { type: 'integer', multipleOf: 2.5 },
        any: { type: 'integer', multipleOf: 0.5 },
      },
    };
    expect(schemaToForm(steps)).toEqual([
      { name: 'price', required: false, kind: 'number', integer: false, step: 0.5 },
      { name: 'boxes', required: false, kind: 'number', integer: true, minimum: 10, step: 5 },
      { name: 'odd', required: false, kind: 'number', integer: true, minimum: 5, step: 5 },
      { name: 'quarters', required: false, kind: 'number', integer: false, minimum: 0.25, step: 0.25 },
      { name: 'fives', required: false, kind: 'number', integer: true, step: 5 },
      { name: 'any', required: false, kind: 'number', integer: true },
    ]);
  });

  it("gives a form's date and time fields, described by Chrome as patterns, the browser's own inputs; a pattern that takes other text, a text box", () => {
    // As Chromium 156 writes a `<form toolname>` with these inputs.
    const booking = {
      type: 'object',
      properties: {
        email: { type: 'string' },
        when: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$' },
        at: { type: 'string', format: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
        day: { type: 'string', format: 'date', description: "Dates MUST be provided in 'YYYY-MM-DD' format." },
        month: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
        week: { type: 'string', format: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$' },
        colour: { type: 'string', format: '^#[0-9a-zA-Z]{6}$' },
        anything: { type: 'string', format: '^.*$' },
        broken: { type: 'string', format: '^[0-9$' },
        // A page's own pattern that a date would match, or one written to backtrack, is never run.
        isbn: { type: 'string', format: '^[0-9-]{10,17}$' },
        slow: { type: 'string', format: '^(.|.|.|.)*x$' },
      },
      required: ['email'],
    };
    expect(schemaToForm(booking).map((field) => [field.name, field.kind === 'text' ? field.inputType : field.kind])).toEqual([
      ['email', undefined],
      ['when', 'datetime-local'],
      ['at', 'time'],
      ['day', 'date'],
      ['month', 'month'],
      ['week', 'week'],
      // A colour input cannot be left empty: a text box can.
      ['colour', undefined],
      ['anything', undefined],
      ['broken', undefined],
      ['isbn', undefined],
      ['slow', undefined],
    ]);
  });

  it("gives a list of choices (a form's checkbox group or multiple select) a checkbox for each, named as the page names them", () => {
    // As Chromium 156 writes three checkboxes named "extras" and a `<select multiple>`.
    const choice = (value: string, title?: string) => ({ type: 'string', const: value, ...(title ? { title } : {}) });
    const order = {
      type: 'object',
      properties: {
        extras: { type: 'array', items: { type: 'string', anyOf: [choice('a'), choice('b'), choice('c')], enum: ['a', 'b', 'c'] }, uniqueItems: true },
        wrap: { type: 'array', items: { type: 'string', anyOf: [choice('x', 'Gift box'), choice('y', 'Paper')], enum: ['x', 'y'] }, uniqueItems: true },
        sizes: { type: 'array', items: { enum: [1, 2, 3] }, uniqueItems: true, default: [2] },
        pair: { type: 'array', prefixItems: [{ enum: ['a'] }], items: { enum: ['b'] }, uniqueItems: true },
        notes: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        // Order and repeats matter here: only JSON can say ["up", "up", "left"].
        moves: { type: 'array', items: { enum: ['up', 'down', 'left'] } },
      },
      required: ['wrap', 'sizes'],
    };
    expect(schemaToForm(order)).toEqual([
      { name: 'extras', required: false, kind: 'choices', options: ['a', 'b', 'c'] },
      { name: 'wrap', required: true, kind: 'choices', options: ['x', 'y'], titles: ['Gift box', 'Paper'] },
      { name: 'sizes', required: true, kind: 'choices', options: [1, 2, 3], default: [2] },
      expect.objectContaining({ name: 'pair', kind: 'json' }),
      expect.objectContaining({ name: 'notes', kind: 'json' }),
      expect.objectContaining({ name: 'moves', kind: 'json' }),
    ]);
    // A required list starts at its default and is sent empty when nothing is checked; an optional one is then left out.
    expect(initialFieldValues(schemaToForm(order))).toMatchObject({ extras: '', wrap: '', sizes: '1' });
    expect(untouched(order)).toEqual({ ok: true, args: { wrap: [], sizes: [2] } });
    expect(untouched(order, { extras: '0,2', wrap: '1', sizes: '' })).toEqual({ ok: true, args: { extras: ['a', 'c'], wrap: ['y'], sizes: [] } });
    // "none": an optional list sent empty, where nothing checked leaves it out.
    expect(untouched(order, { extras: noChoices })).toEqual({ ok: true, args: { extras: [], wrap: [], sizes: [2] } });
    const sent = untouched(order, { extras: '2,0' });
    expect(sent.ok && validateArgs(formSchema(order), sent.args)).toBeNull();
    expect(sent).toMatchObject({ args: { extras: ['a', 'c'] } });
  });

  it('gives one field per property: text, number, integer, boolean, select, JSON', () => {
    expect(schemaToForm(schema)).toEqual([
      { name: 'query', required: true, description: 'Words to look for', kind: 'text' },
      { name: 'limit', required: false, kind: 'number', integer: true, minimum: 1, maximum: 20 },
      { name: 'price', required: false, kind: 'number', integer: false, maximum: 99.5 },
      { name: 'inStock', required: false, kind: 'boolean' },
      { name: 'size', required: true, kind: 'select', options: ['S', 'M', 'L'] },
      { name: 'rating', required: false, kind: 'select', options: [1, 2, 3] },
      { name: 'address', required: false, kind: 'json', template: '{\n  "city": ""\n}' },
      { name: 'tags', required: false, kind: 'json', template: '[\n  "new"\n]' },
      { name: 'note', required: false, kind: 'text', nullable: true },
      { name: 'anything', required: false, kind: 'json', template: 'null' },
    ]);
  });

  it('gives no fields for a schema without properties, or one that is not an object schema', () => {
    expect(schemaToForm({ type: 'object' })).toEqual([]);
    expect(schemaToForm({ type: 'string' })).toEqual([]);
    expect(schemaToForm({ properties: [1, 2] })).toEqual([]);
  });

  it('gives a JSON editor, saying why, to each name the schema requires without describing it, so the tool can still be run', () => {
    const note = 'The schema requires it but does not describe it: write its value as JSON.';
    const schema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query', 'token'] };
    expect(schemaToForm(schema)).toEqual([
      { name: 'query', required: true, kind: 'text' },
      { name: 'token', required: true, kind: 'json', template: 'null', note },
    ]);
    expect(schemaToForm({ type: 'object', required: ['id'] })).toEqual([{ name: 'id', required: true, kind: 'json', template: 'null', note }]);
    const read = formValuesToArgs(schemaToForm(schema), { query: 'mugs', token: '"abc"' });
    expect(read).toEqual({ ok: true, args: { query: 'mugs', token: 'abc' } });
    expect(read.ok && validateArgs(formSchema(schema), read.args)).toBeNull();
  });

  it('gives one JSON editor for the whole arguments when the root has alternatives or is a map', () => {
    const byIdOrEmail = {
      type: 'object',
      oneOf: [
        { properties: { id: { type: 'integer' } }, required: ['id'] },
        { properties: { email: { type: 'string' } }, required: ['email'] },
      ],
    };
    expect(schemaToForm(byIdOrEmail)).toEqual([expect.objectContaining({ name: 'arguments', kind: 'arguments', required: true, template: '{\n  "id": 0\n}' })]);
    expect(untouched(byIdOrEmail, { arguments: '{"email": "ada@example.com"}' })).toEqual({ ok: true, args: { email: 'ada@example.com' } });
    expect(untouched(byIdOrEmail, { arguments: '[1]' })).toMatchObject({ ok: false, field: 'arguments' });

    const map = { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 };
    expect(schemaToForm(map)).toEqual([expect.objectContaining({ kind: 'arguments', template: '{}' })]);
    expect(untouched(map, { arguments: '{"colour": "blue"}' })).toEqual({ ok: true, args: { colour: 'blue' } });
    // Named properties besides extra keys still get their fields.
    expect(schemaToForm({ type: 'object', properties: { q: { type: 'string' } }, additionalProperties: {} })).toMatchObject([{ name: 'q', kind: 'text' }]);
  });

  it('reads "X or null" as X that may be null, whether written as a type list or as zod writes .nullable()', () => {
    const nullable = {
      type: 'object',
      properties: {
        address: { anyOf: [{ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, { type: 'null' }] },
        count: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], description: 'How many' },
        size: { anyOf: [{ type: 'string', enum: ['S', 'M'] }, { type: 'null' }] },
        gift: { type: ['boolean', 'null'] },
      },
      required: ['address'],
    };
    expect(schemaToForm(nullable)).toEqual([
      { name: 'address', required: true, kind: 'json', template: '{\n  "city": ""\n}' },
      { name: 'count', required: false, description: 'How many', kind: 'number', integer: true, minimum: 1, nullable: true },
      { name: 'size', required: false, kind: 'select', options: ['S', 'M', null] },
      { name: 'gift', required: false, kind: 'boolean', nullable: true },
    ]);
    expect(untouched(nullable)).toEqual({ ok: true, args: { address: { city: '' } } });
    expect(untouched(schema, { query: null, size: '0' })).toEqual({ ok: true, args: { query: null, size: 'S' } });
    expect(untouched(nullable, { count: null, gift: null, size: '2' })).toMatchObject({ ok: true, args: { count: null, gift: null, size: null } });
  });

  it('asks for what the agent reads: a reference its target, a const its one value, an allOf root its fields; and refuses what the agent refuses', () => {
    const address = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const referenced = { type: 'object', $defs: { Address: address }, properties: { home: { $ref: '#/$defs/Address' } }, required: ['home'] };
    expect(schemaToForm(referenced)).toEqual([{ name: 'home', required: true, kind: 'json', template: '{\n  "city": ""\n}' }]);
    expect(validateArgs(formSchema(referenced), { home: 12 })).toBe('"home" must be object, got 12.');

    const fixed = { type: 'object', properties: { speed: { type: 'string', const: 'fast', description: 'How fast.' } } };
    expect(schemaToForm(fixed)).toEqual([{ name: 'speed', required: false, description: 'How fast.', kind: 'select', options: ['fast'] }]);
    expect(validateArgs(formSchema(fixed), { speed: 'slow' })).toBe('"speed" must be one of "fast".');

    const merged = { allOf: [{ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, { properties: { note: { type: 'string' } } }] };
    expect(schemaToForm(merged)).toEqual([
      { name: 'id', required: true, kind: 'number', integer: true },
      { name: 'note', required: false, kind: 'text' },
    ]);
    expect(untouched(merged)).toEqual({ ok: true, args: { id: '' } });
    expect(validateArgs(formSchema(merged), { id: '' })).toBe('Missing required argument "id".');

    // Its own words stay: the form says a format and a default in its own way.
    const dated = { type: 'object', properties: { day: { type: 'string', format: 'date', default: '2026-01-01', description: 'The day.' } } };
    expect(schemaToForm(dated)).toEqual([{ name: 'day', required: false, description: 'The day.', kind: 'text', default: '2026-01-01', inputType: 'date' }]);
  });

  it('offers null in a list of choices only where null is one of them', () => {
    const colour = { type: 'object', properties: { colour: { type: ['string', 'null'], enum: ['red', 'blue'] }, size: { type: ['string', 'null'], enum: ['S', null] } } };
    expect(schemaToForm(colour)).toEqual([
      { name: 'colour', required: false, kind: 'select', options: ['red', 'blue'] },
      { name: 'size', required: false, kind: 'select', options: ['S', null] },
    ]);
  });

  it('gives a union of types a JSON editor, so every branch can be written', () => {
    const union = { type: 'object', properties: { id: { type: ['integer', 'string'] } }, required: ['id'] };
    expect(schemaToForm(union)).toEqual([{ name: 'id', required: true, kind: 'json', template: '0' }]);
    expect(untouched(union, { id: '"SKU-1"' })).toEqual({ ok: true, args: { id: 'SKU-1' } });
  });

  it('says why a property whose type is not a JSON Schema type gets a JSON editor', () => {
    const typo = { type: 'object', properties: { people: { type: 'integr' }, seats: { type: ['intger', 'null'] } } };
    expect(schemaToForm(typo)).toEqual([
      { name: 'people', required: false, kind: 'json', template: 'null', note: '"integr" is not a JSON Schema type, so the form cannot tell what to ask: write the value as JSON.' },
      { name: 'seats', required: false, kind: 'json', template: 'null', note: '"intger" is not a JSON Schema type, so the form cannot tell what to ask: write the value as JSON.' },
    ]);
  });
});

describe('formValuesToArgs: what the form sends', () => {
  const fields = schemaToForm(schema);

  it('reads numbers as numbers, the chosen option as its value, JSON as JSON, and leaves empty optional fields out', () => {
    const values = { ...initialFieldValues(fields), query: 'mug', limit: '3', price: '', inStock: false, size: '1', rating: '2', tags: '["sale"]' };
    expect(formValuesToArgs(fields, values)).toEqual({
      ok: true,
      args: { query: 'mug', limit: 3, inStock: false, size: 'M', rating: 3, tags: ['sale'] },
    });
  });

  it('sends nothing the person did not set: optional JSON editors start empty, optional booleans not set', () => {
    expect(initialFieldValues(fields)).toEqual({ query: '', limit: '', price: '', inStock: '', size: '', rating: '', address: '', tags: '', note: '', anything: '' });
    expect(untouched(schema, { query: 'mug', size: '0' })).toEqual({ ok: true, args: { query: 'mug', size: 'S' } });
  });

  it('prefills a required JSON editor with its template, but never with a made-up null', () => {
    const required = { ...schema, required: ['address', 'anything'] };
    expect(initialFieldValues(schemaToForm(required))).toMatchObject({ address: '{\n  "city": ""\n}', anything: '' });
    const read = untouched(required);
    expect(read.ok && validateArgs(required, read.args)).toBe('Missing required argument "anything".');
  });

  it('starts a boolean at the schema default; a required one without a default is a plain false', () => {
    const flags = {
      type: 'object',
      properties: { archived: { type: 'boolean', default: true }, quiet: { type: 'boolean' }, dryRun: { type: 'boolean' } },
      required: ['dryRun'],
    };
    expect(schemaToForm(flags)).toMatchObject([{ name: 'archived', default: true }, { name: 'quiet' }, { name: 'dryRun', required: true }]);
    expect(initialFieldValues(schemaToForm(flags))).toEqual({ archived: true, quiet: '', dryRun: false });
    expect(untouched(flags)).toEqual({ ok: true, args: { archived: true, dryRun: false } });
    expect(untouched(flags, { archived: '', quiet: false })).toEqual({ ok: true, args: { quiet: false, dryRun: false } });
  });

  it('says which field is not JSON', () => {
    expect(formValuesToArgs(fields, { ...initialFieldValues(fields), query: 'a', size: '0', tags: '[oops' })).toEqual({
      ok: false,
      message: '"tags" is not valid JSON.',
      field: 'tags',
    });
    // A word typed where a list is asked for is told how a list of it is written.
    expect(formValuesToArgs(fields, { ...initialFieldValues(fields), query: 'a', size: '0', tags: 'sale' })).toMatchObject({
      ok: false,
      message: '"tags" is not valid JSON: a list is written in brackets, with text in double quotes, such as ["sale"].',
    });
    // Where a size is a number or a name, a name is text without its quotes; an object takes no such hint.
    const mixed = schemaToForm({ type: 'object', properties: { size: { anyOf: [{ type: 'integer' }, { enum: ['S', 'M', 'L'] }] }, address: { type: 'object', properties: { city: { type: 'string' } } } } });
    expect(formValuesToArgs(mixed, { size: "'M'", address: '' })).toMatchObject({ message: '"size" is not valid JSON: text is written in double quotes, such as "M".' });
    expect(formValuesToArgs(mixed, { size: '', address: 'Paris' })).toMatchObject({ message: '"address" is not valid JSON.' });
  });

  it('hands validateArgs what it needs to give its own messages, and finds the field each names', () => {
    const check = (values: Record<string, string | boolean>) => {
      const read = formValuesToArgs(fields, { ...initialFieldValues(fields), ...values });
      const message = read.ok ? validateArgs(schema, read.args) : read.message;
      return message && `${message} [${fieldNamedIn(message, fields)}]`;
    };
    expect(check({ size: '0' })).toBe('Missing required argument "query". [query]');
    expect(check({ query: 'mug', size: '' })).toBe('Missing required argument "size". [size]');
    expect(check({ query: 'mug', size: '0', limit: '0' })).toBe('"limit" must be at least 1. [limit]');
    expect(check({ query: 'mug', size: '0', limit: '2.5' })).toBe('"limit" must be integer, got 2.5. [limit]');
    expect(check({ query: 'mug', size: '0', limit: 'two' })).toBe('"limit" must be integer, got "two". [limit]');
    expect(check({ query: 'mug', size: '0', price: '120' })).toBe('"price" must be at most 99.5. [price]');
    expect(check({ query: 'mug', size: '2' })).toBeNull();
  });

  it('keeps a property called __proto__ as an argument', () => {
    const odd = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}') as Record<string, unknown>;
    const read = formValuesToArgs(schemaToForm(odd), JSON.parse('{"__proto__": "x"}') as Record<string, string>);
    expect(read.ok && Object.entries(read.args)).toEqual([['__proto__', 'x']]);
  });
});

describe('initialFieldValues: where a fresh form starts', () => {
  it("starts a required field at its schema's default, and leaves an optional one empty for the tool's own", () => {
    const fields = schemaToForm({
      type: 'object',
      properties: {
        size: { enum: ['S', 'M', 'L'], default: 'M' },
        count: { type: 'integer', default: 2 },
        note: { type: 'string', default: 'none' },
        colour: { enum: ['red', 'blue'], default: 'blue' },
        limit: { type: 'integer', default: 10 },
        odd: { enum: ['a'], default: 'z' },
      },
      required: ['size', 'count', 'note', 'odd'],
    });
    expect(initialFieldValues(fields)).toEqual({ size: '1', count: '2', note: 'none', colour: '', limit: '', odd: '' });
    expect(formValuesToArgs(fields, initialFieldValues(fields))).toEqual({ ok: true, args: { size: 'M', count: 2, note: 'none', odd: '' } });
  });
});

/** The values `carryOverForm` carries over. */
const carryOverValues = (...args: Parameters<typeof carryOverForm>) => carryOverForm(...args).values;

describe('carryOverForm: the form after the schema changed', () => {
  it('keeps what was set in a field described as before, and starts any other afresh', () => {
    const before = schemaToForm({ type: 'object', properties: { query: { type: 'string' }, size: { type: 'string' } } });
    const after = schemaToForm({
      type: 'object',
      properties: { query: { type: 'string' }, size: { type: 'string', enum: ['S', 'M'] }, filters: { type: 'object', properties: { maxPrice: { type: 'number' } } } },
      required: ['filters'],
    });
    expect(carryOverValues(before, { query: 'mug', size: 'large' }, after)).toEqual({ query: 'mug', size: '', filters: '{\n  "maxPrice": 0\n}' });
  });

  it('keeps a choice the page still offers when it changes the options, at its new place, and drops one it took away', () => {
    const sized = (options: unknown[]) => schemaToForm({ type: 'object', properties: { size: { enum: options } } });
    // "M" was the second option; a new first one moves it to the third place.
    expect(carryOverValues(sized(['S', 'M']), { size: '1' }, sized(['XS', 'S', 'M', 'L']))).toEqual({ size: '2' });
    expect(carryOverValues(sized([{ w: 1 }, { w: 2 }]), { size: '1' }, sized([{ w: 2 }]))).toEqual({ size: '0' });
    // The same object with its keys in another order is the same option, as JSON Schema's enum means it.
    expect(carryOverValues(sized([{ w: 1, h: 2 }]), { size: '0' }, sized(['none', { h: 2, w: 1 }]))).toEqual({ size: '1' });
    expect(carryOverValues(sized(['S', 'M']), { size: '1' }, sized(['S', 'L']))).toEqual({ size: '' });
    expect(carryOverValues(sized(['S', 'M']), { size: '' }, sized(['XS', 'S', 'M']))).toEqual({ size: '' });
  });

  it('keeps the boxes checked in a list of choices at their new places, those the page still offers', () => {
    const extras = (options: unknown[]) => schemaToForm({ type: 'object', properties: { extras: { type: 'array', items: { enum: options }, uniqueItems: true } } });
    expect(carryOverForm(extras(['a', 'b', 'c']), { extras: '0,2' }, extras(['c', 'z', 'a']))).toEqual({ values: { extras: '0,2' }, lost: [], unoffered: [] });
    // One checked option gone: the others stay checked, and the one gone is named.
    expect(carryOverForm(extras(['a', 'b', 'c']), { extras: '0,1' }, extras(['c', 'z', 'a']))).toEqual({ values: { extras: '2' }, lost: [], unoffered: [{ name: 'extras', options: ['b'] }] });
    expect(carryOverForm(extras(['a', 'b']), { extras: '1' }, extras(['a', 'c']))).toEqual({ values: { extras: '' }, lost: ['extras'], unoffered: [] });
    expect(carryOverForm(extras(['a', 'b']), { extras: noChoices }, extras(['a', 'b', 'c']))).toEqual({ values: { extras: noChoices }, lost: [], unoffered: [] });
    // How many it takes may change: what was checked stays.
    const bounded = schemaToForm({ type: 'object', properties: { extras: { type: 'array', items: { enum: ['a', 'b', 'c'] }, uniqueItems: true, maxItems: 2 } } });
    expect(carryOverForm(extras(['a', 'b', 'c']), { extras: '0,2' }, bounded)).toEqual({ values: { extras: '0,2' }, lost: [], unoffered: [] });
    // A list of the same choices that became one choice is a new question.
    const single = schemaToForm({ type: 'object', properties: { extras: { enum: ['a', 'b', 'c'] } } });
    expect(carryOverForm(extras(['a', 'b', 'c']), { extras: '1' }, single)).toEqual({ values: { extras: '' }, lost: ['extras'], unoffered: [] });
  });
});

describe('a JSON editor for a property with alternatives', () => {
  it("starts from the page's first alternative, references written out, so the page's whole schema accepts it as it stands", () => {
    const pickup = { type: 'object', properties: { kind: { const: 'pickup' }, store: { $ref: '#/$defs/store' } }, required: ['kind', 'store'], additionalProperties: false };
    const schema = {
      type: 'object',
      $defs: { store: { type: 'string', enum: ['Leeds', 'York'] }, pickup },
      properties: {
        shipping: {
          oneOf: [
            { $ref: '#/$defs/pickup' },
            { type: 'object', properties: { kind: { const: 'delivery' }, address: { type: 'string' } }, required: ['kind', 'address'], additionalProperties: false },
          ],
        },
        parcel: {
          type: 'object',
          properties: { size: { oneOf: [{ type: 'object', properties: { box: { const: 'S' } }, additionalProperties: false }, { type: 'object', properties: { weight: { type: 'number' } }, additionalProperties: false }] } },
          required: ['size'],
        },
      },
      required: ['shipping', 'parcel'],
    };
    const fields = schemaToForm(schema);
    expect(fields).toMatchObject([
      { name: 'shipping', kind: 'json', template: '{\n  "kind": "pickup",\n  "store": "Leeds"\n}' },
      { name: 'parcel', kind: 'json', template: '{\n  "size": {\n    "box": "S"\n  }\n}' },
    ]);
    const read = formValuesToArgs(fields, initialFieldValues(fields));
    const check = fullSchemaCheck(schema);
    expect(read.ok && 'check' in check && check.check(read.args)).toBeNull();
  });
});

describe('a starting value the whole schema takes', () => {
  it('fills the required properties within their bounds, and shows the plain optional ones only where nothing is required', () => {
    const tree = { $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] } } };
    expect(jsonTemplate({ $ref: '#/$defs/node' }, tree)).toEqual({ name: '' });
    expect(jsonTemplate({ type: 'object', properties: { ratio: { type: 'number', exclusiveMinimum: 0 }, count: { type: 'integer', exclusiveMinimum: 0, maximum: 9 } }, required: ['ratio', 'count'] })).toEqual({ ratio: 1, count: 1 });
    expect(jsonTemplate({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBe(0.5);
    expect(jsonTemplate({ type: 'integer', maximum: -5 })).toBe(-5);
    // A schema whose branch refers back to itself ends, as the form must show something.
    expect(jsonTemplate({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], allOf: [{ $ref: '#' }] })).toEqual({ a: '' });
    expect(schemaToForm({ type: 'object', properties: { node: { $ref: '#/$defs/n' } }, required: ['node'], $defs: { n: { oneOf: [{ $ref: '#/$defs/n' }] } } })).toMatchObject([{ name: 'node', kind: 'json' }]);
    // Nothing required: the shape shows, but not a value a rule would refuse ("" for a pattern, a nested object).
    const filters = { type: 'object', properties: { colour: { type: 'string' }, gift: { type: 'boolean' }, code: { type: 'string', pattern: '^[A-Z]{3}$' }, size: { type: 'object', properties: { cm: { type: 'number' } } } } };
    expect(jsonTemplate(filters)).toEqual({ colour: '', gift: false });
    const check = fullSchemaCheck({ type: 'object', properties: { filters }, required: ['filters'] });
    expect('check' in check && check.check({ filters: jsonTemplate(filters) as Record<string, unknown> })).toBeNull();
  });
});

describe('jsonTemplate', () => {
  it('shapes a value like the schema, and stops at a sane depth', () => {
    expect(jsonTemplate({ type: 'object', properties: { a: { type: 'boolean' }, b: { const: 'x' }, c: { default: 5 } } })).toEqual({ a: false, b: 'x', c: 5 });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 20; level += 1) deep = { type: 'array', items: deep };
    expect(JSON.stringify(jsonTemplate(deep))).toBe('[[[[[[[]]]]]]]');
  });

  it('follows the first branch that is not null, and merges allOf', () => {
    expect(jsonTemplate({ anyOf: [{ type: 'null' }, { type: 'array', items: { type: 'integer', minimum: 2 } }] })).toEqual([2]);
    expect(jsonTemplate({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('');
    expect(jsonTemplate({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'boolean' } } }] })).toEqual({ a: '', b: false });
  });
});
