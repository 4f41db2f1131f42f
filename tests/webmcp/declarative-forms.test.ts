// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDeclarativeSource } from '@/lib/webmcp/declarative-source';
import { clearEarlierCall } from '@/lib/webmcp/earlier-call-fields';
import { fillToolForm } from '@/lib/webmcp/fill-tool-form';
import { formToolSchema } from '@/lib/webmcp/form-tool-schema';
import { formSubmittedWithoutResult } from '@/lib/webmcp/form-waits-for-person';
import { sanitizeTool } from '@/lib/webmcp/sanitize-tool';

const never = new AbortController().signal;

beforeEach(() => {
  document.body.innerHTML = `
    <form toolname="book_table" tooldescription="Book a table." toolautosubmit>
      <label>Name <input name="name" required toolparamdescription="The name of the booking"></label>
      <label>Guests <input name="guests" type="number" min="1" max="8" required></label>
      <label>Price <input name="budget" type="number" step="0.5"></label>
      <label>Time <select name="time"><option>18:00</option><option>20:00</option></select></label>
      <fieldset><legend>Diet</legend>
        <label><input type="checkbox" name="diet" value="vegan"> Vegan</label>
        <label><input type="checkbox" name="diet" value="gluten-free"> Gluten-free</label>
      </fieldset>
      <label><input type="radio" name="seat" value="inside"> Inside</label>
      <label><input type="radio" name="seat" value="terrace"> Terrace</label>
      <label><input type="checkbox" name="newsletter"> Newsletter</label>
      <textarea name="note" aria-label="A note for the kitchen"></textarea>
      <input type="hidden" name="session" value="s1">
      <input name="off" disabled>
      <button type="submit">Book</button>
    </form>`;
});

const form = () => document.querySelector('form') as HTMLFormElement;

/** A choice as Chrome writes it: each value with the page's words for it, and the plain enum. */
const choice = (...pairs: [string, string][]) => ({
  type: 'string',
  anyOf: pairs.map(([value, title]) => ({ type: 'string', const: value, title })),
  enum: pairs.map(([value]) => value),
});

describe('formToolSchema: a <form toolname> as an input schema', () => {
  it('maps each named field to a property, with descriptions and required fields', () => {
    expect(formToolSchema(form())).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The name of the booking' },
        // Steps of 1 by default, as Chrome writes them: the prompt reads a whole number.
        guests: { type: 'number', multipleOf: 1, minimum: 1, maximum: 8, description: 'Guests' },
        budget: { type: 'number', multipleOf: 0.5, description: 'Price' },
        time: { ...choice(['18:00', '18:00'], ['20:00', '20:00']), description: 'Time' },
        diet: { type: 'array', items: choice(['vegan', 'Vegan'], ['gluten-free', 'Gluten-free']), uniqueItems: true, description: 'Diet' },
        seat: choice(['inside', 'Inside'], ['terrace', 'Terrace']),
        newsletter: { type: 'boolean', description: 'Newsletter' },
        note: { type: 'string', description: 'A note for the kitchen' },
      },
      required: ['name', 'guests'],
    });
  });
});

describe("what a field takes that the model's schema cannot say", () => {
  it('gives a text its lengths, and says them, with a time\'s or a colour\'s form, first in its description', () => {
    document.body.innerHTML = `
      <form toolname="book" tooldescription="Book.">
        <label>Notes <textarea name="notes" maxlength="40"></textarea></label>
        <label>Code <input name="code" minlength="4" maxlength="6" pattern="[A-Z]+" required></label>
        <label>Story <input name="story" minlength="1000"></label>
        <label>Odd <input name="odd" minlength="20" maxlength="10"></label>
        <input name="day" type="date" aria-label="Day">
        <label>At <input name="at" type="time"></label>
        <label>Colour <input name="colour" type="color" maxlength="3"></label>
      </form>`;
    expect(formToolSchema(form()).properties).toEqual({
      notes: { type: 'string', maxLength: 40, description: '(at most 40 characters) Notes' },
      code: { type: 'string', pattern: '[A-Z]+', maxLength: 6, minLength: 4, description: '(4 to 6 characters) Code' },
      // Optional: left empty, the form takes it.
      story: { type: 'string', minLength: 1000, description: '(if given, at least 1,000 characters) Story' },
      // A minlength past the maxlength, which no value meets: the maxlength alone.
      odd: { type: 'string', maxLength: 10, description: '(at most 10 characters) Odd' },
      // Its format says it already, in the model's schema ("format: date").
      day: { type: 'string', format: 'date', description: 'Day' },
      at: { type: 'string', description: '(a time as HH:MM) At' },
      colour: { type: 'string', description: '(a colour as #rrggbb) Colour' },
    });
  });
});

describe('a number field\'s steps', () => {
  it('are a multipleOf where they count from 0, and said first in its description where they count from its min or value', () => {
    document.body.innerHTML = `
      <form toolname="order" tooldescription="Order.">
        <label>Cheese <input name="grams" type="number" min="0" step="25"></label>
        <label>Size <input name="size" type="number" min="1" step="0.5"></label>
        <input name="dose" type="range" min="10" max="100" step="30">
        <label>Half <input name="half" type="number" min="0.5"></label>
        <label>From its value <input name="late" type="number" step="25" value="10"></label>
        <label>Any <input name="any" type="number" step="any"></label>
        <label>Fine <input name="fine" type="number" min="0.00000005" step="0.0000001"></label>
      </form>`;
    expect(formToolSchema(form()).properties).toEqual({
      grams: { type: 'number', multipleOf: 25, minimum: 0, description: 'Cheese' },
      size: { type: 'number', multipleOf: 0.5, minimum: 1, description: 'Size' },
      dose: { type: 'number', minimum: 10, maximum: 100, description: '(in steps of 30 from 10)' },
      half: { type: 'number', minimum: 0.5, description: '(in steps of 1 from 0.5) Half' },
      late: { type: 'number', description: '(in steps of 25 from 10) From its value' },
      any: { type: 'number', description: 'Any' },
      // In plain decimals, not as JavaScript prints such numbers (1e-7).
      fine: { type: 'number', minimum: 5e-8, description: '(in steps of 0.0000001 from 0.00000005) Fine' },
    });
  });
});

describe('fields named like what every object has', () => {
  it('offers a field named __proto__ or constructor as a property like any other, and a call fills it', async () => {
    document.body.innerHTML = `<form toolname="search" tooldescription="Search the shop." toolautosubmit>
      <input name="q" required><input name="__proto__"><input name="constructor">
    </form>`;
    form().addEventListener('submit', (event) => event.preventDefault());
    const source = createDeclarativeSource();
    const [offered] = (await source.list()).offered;
    const checked = sanitizeTool(offered!.tool, { origin: 'https://shop.example', source: 'declarative' });
    if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
    const properties = checked.tool.inputSchema.properties as object;
    expect(Object.keys(properties)).toEqual(['q', '__proto__', 'constructor']);
    expect(JSON.stringify(properties)).toBe('{"q":{"type":"string"},"__proto__":{"type":"string"},"constructor":{"type":"string"}}');
    // The model's arguments come as JSON, where "__proto__" is a key like any other.
    const args = JSON.parse('{"q": "mug", "__proto__": "blue", "constructor": "oak"}') as Record<string, unknown>;
    await expect(source.execute('search', args, never)).resolves.toBe(formSubmittedWithoutResult);
    expect(['q', '__proto__', 'constructor'].map((name) => (document.querySelector(`[name="${name}"]`) as HTMLInputElement).value)).toEqual(['mug', 'blue', 'oak']);
  });
});

describe('the page’s words for choices', () => {
  it('keeps what each option, radio and checkbox says, and a group’s fieldset description before its legend', () => {
    document.body.innerHTML = `
      <form toolname="book">
        <label>Time <select name="time"><option value="s1">Friday  18:00</option><option value="s2" label="Friday 20:00">8 pm</option></select></label>
        <fieldset toolparamdescription="Where to sit"><legend>Seat</legend>
          <label><input type="radio" name="seat" value="in"> Inside</label>
          <label><input type="radio" name="seat" value="out"> Terrace</label>
        </fieldset>
        <fieldset><legend>Extras</legend><div>
          <label><input type="checkbox" name="extras" value="w"> Wine</label>
          <input type="checkbox" name="extras" value="c">
        </div></fieldset>
        <select name="sizes" multiple><option value="s">Small</option><option value="l">Large</option></select>
      </form>`;
    expect(formToolSchema(form()).properties).toEqual({
      time: { ...choice(['s1', 'Friday 18:00'], ['s2', 'Friday 20:00']), description: 'Time' },
      seat: { ...choice(['in', 'Inside'], ['out', 'Terrace']), description: 'Where to sit' },
      extras: {
        type: 'array',
        items: { type: 'string', anyOf: [{ type: 'string', const: 'w', title: 'Wine' }, { type: 'string', const: 'c' }], enum: ['w', 'c'] },
        uniqueItems: true,
        description: 'Extras',
      },
      sizes: { type: 'array', items: choice(['s', 'Small'], ['l', 'Large']), uniqueItems: true },
    });
  });

  it('offers no field for several controls of other kinds under one name, as Chrome does', () => {
    document.body.innerHTML = `<form toolname="tags"><input name="tag"><input name="tag"><input type="radio" name="pick" value="a"><input name="pick"></form>`;
    expect(formToolSchema(form()).properties).toEqual({});
  });
});

describe('fields the page fixed', () => {
  it('leaves out read-only fields where readonly applies, and never fills them', () => {
    document.body.innerHTML = `
      <form toolname="pay">
        <input name="price" readonly value="49.00">
        <textarea name="order" readonly>T7</textarea>
        <input name="tip" type="number" readonly>
        <input type="checkbox" name="agree" readonly>
        <input name="off" disabled>
        <input name="note">
      </form>`;
    expect(Object.keys(formToolSchema(form()).properties as object)).toEqual(['agree', 'note']);
    expect(() => fillToolForm(form(), { price: '0.01' })).toThrow('The form has no field named "price".');
    expect((document.querySelector('[name=price]') as HTMLInputElement).value).toBe('49.00');
  });
});

describe('fillToolForm: a call’s arguments typed into the form', () => {
  it('fills text, numbers, selects, checkbox groups, radios and flags, firing input and change', () => {
    const events: string[] = [];
    form().addEventListener('change', (event) => events.push((event.target as HTMLInputElement).name));
    fillToolForm(form(), { name: 'Ada', guests: 2, time: '20:00', diet: ['vegan'], seat: 'terrace', newsletter: true });
    const data = new FormData(form());
    expect([data.get('name'), data.get('guests'), data.get('time'), data.getAll('diet'), data.get('seat'), data.get('newsletter')]).toEqual([
      'Ada',
      '2',
      '20:00',
      ['vegan'],
      'terrace',
      'on',
    ]);
    expect(events).toEqual(['name', 'guests', 'time', 'diet', 'seat', 'newsletter']);
  });

  it('refuses a field the form does not have, and names those it has', () => {
    expect(() => fillToolForm(form(), { price: 3 })).toThrow(
      'The form has no field named "price". Its fields are "name", "guests", "budget", "time", "diet", "seat", "newsletter", "note".',
    );
  });

  it('unchecks only what the call changes: the rest of a radio group follows, untouched boxes fire nothing', () => {
    fillToolForm(form(), { seat: 'inside', diet: ['vegan'] });
    const events: string[] = [];
    form().addEventListener('change', (event) => events.push(`${(event.target as HTMLInputElement).name}=${(event.target as HTMLInputElement).value}`));
    fillToolForm(form(), { seat: 'terrace', diet: ['vegan', 'gluten-free'], newsletter: 1 });
    expect(events).toEqual(['seat=terrace', 'diet=gluten-free', 'newsletter=on']);
    const data = new FormData(form());
    expect([data.get('seat'), data.getAll('diet'), data.get('newsletter')]).toEqual(['terrace', ['vegan', 'gluten-free'], 'on']);
    fillToolForm(form(), { newsletter: 'False', diet: [] });
    expect([new FormData(form()).get('newsletter'), new FormData(form()).getAll('diet')]).toEqual([null, []]);
  });

  it('puts every field a call does not name back to the page\'s default, so an earlier call\'s values are not sent again', () => {
    fillToolForm(form(), { name: 'Ada', guests: 4, budget: 30, time: '20:00', diet: ['vegan'], seat: 'terrace', newsletter: true, note: 'Window seat' });
    const events: string[] = [];
    form().addEventListener('change', (event) => events.push((event.target as HTMLInputElement).name));
    fillToolForm(form(), { name: 'Bo', guests: 2 });
    const data = new FormData(form());
    expect(Object.fromEntries(['name', 'guests', 'budget', 'time', 'seat', 'newsletter', 'note', 'session'].map((name) => [name, data.get(name)]))).toEqual({
      name: 'Bo',
      guests: '2',
      budget: '',
      time: '18:00',
      seat: null,
      newsletter: null,
      note: '',
      // The page's own hidden field is never touched.
      session: 's1',
    });
    expect(data.getAll('diet')).toEqual([]);
    expect(events.sort()).toEqual(['budget', 'diet', 'guests', 'name', 'newsletter', 'note', 'seat', 'time']);
  });

  it('puts the form back for a refused call only while no later call has begun', () => {
    const notes = form().querySelector<HTMLTextAreaElement>('[name=note]')!;
    const first = clearEarlierCall(form(), { note: 'one' });
    notes.value = 'one';
    const second = clearEarlierCall(form(), { note: 'two' });
    notes.value = 'two';
    // The first call's refusal comes late: the second call's values stay.
    first.undo();
    expect(notes.value).toBe('two');
    second.undo();
    expect(notes.value).toBe('one');
  });

  it('tells a select apart by the values chosen, not their place: options the page swapped and the person chose stay', () => {
    const time = form().querySelector<HTMLSelectElement>('[name=time]')!;
    fillToolForm(form(), { name: 'Ada', time: '20:00' });
    // The page offers other times now, and the person picks the one in the same place.
    time.innerHTML = '<option>19:00</option><option>21:00</option>';
    time.value = '21:00';
    fillToolForm(form(), { name: 'Bo' });
    expect(new FormData(form()).get('time')).toBe('21:00');
  });

  it('keeps what the person typed, and what they changed since an earlier call: only what a call left goes back', () => {
    const note = form().querySelector<HTMLTextAreaElement>('[name=note]')!;
    note.value = 'Typed by me';
    fillToolForm(form(), { name: 'Ada', budget: 30, newsletter: true });
    // The person changes the budget the call put there; the newsletter is as the call left it, so the next call resets it.
    form().querySelector<HTMLInputElement>('[name=budget]')!.value = '45';
    fillToolForm(form(), { name: 'Bo' });
    const data = new FormData(form());
    expect([data.get('name'), data.get('note'), data.get('budget'), data.get('newsletter')]).toEqual(['Bo', 'Typed by me', '45', null]);
  });

  it("keeps a field the person changed back to what a call put there: the browser told of their input, not a script's", () => {
    fillToolForm(form(), { name: 'Ada', budget: 30 });
    const budget = form().querySelector<HTMLInputElement>('[name=budget]')!;
    const input = (trusted: boolean) => {
      const event = new Event('input', { bubbles: true, composed: true });
      // What only the browser's own events carry: a script's cannot set it.
      Object.defineProperty(event, 'isTrusted', { value: trusted });
      budget.dispatchEvent(event);
    };
    // A page script that announces a value of its own does not make the field the person's.
    input(false);
    fillToolForm(form(), { name: 'Bo' });
    expect(budget.value).toBe(budget.defaultValue);
    fillToolForm(form(), { name: 'Cy', budget: 30 });
    // The person types 3, then 30 again.
    budget.value = '30';
    input(true);
    fillToolForm(form(), { name: 'Di' });
    expect(budget.value).toBe('30');
  });
});

describe('fillToolForm: a value the form does not take', () => {
  /** The form's data, to show a refused call changed nothing. */
  const snapshot = () => Array.from(new FormData(form()).entries(), (entry) => entry.join('='));

  beforeEach(() => {
    (document.querySelector('[name=seat][value=inside]') as HTMLInputElement).checked = true;
    (document.querySelector('[name=diet][value=vegan]') as HTMLInputElement).checked = true;
  });

  it.each([
    ['a select', { time: '19:00' }, '"time" must be one of "18:00", "20:00", not "19:00".'],
    ['a radio group', { seat: 'Terrace' }, '"seat" must be one of "inside" (Inside), "terrace" (Terrace), not "Terrace".'],
    ['a checkbox group given one value', { diet: 'vegan' }, '"diet" must be a list of distinct values from "vegan" (Vegan), "gluten-free" (Gluten-free), not "vegan".'],
    ['a checkbox group given a value twice', { diet: ['vegan', 'vegan'] }, 'distinct values'],
    ['a checkbox group given an unknown value', { diet: ['halal'] }, 'distinct values'],
    ['a lone checkbox', { newsletter: 'yes' }, '"newsletter" must be true or false, not "yes".'],
    ['a number', { guests: 'two' }, '"guests" must be a number, not "two".'],
    ['text given an object', { name: { first: 'Ada' } }, '"name" must be text, not {"first":"Ada"}.'],
  ])('refuses %s, naming the field and what it takes, and changes nothing', (_, args, message) => {
    const before = snapshot();
    expect(() => fillToolForm(form(), { name: 'Ada', ...args })).toThrow(message);
    expect(snapshot()).toEqual(before);
  });

  it('names every refused field in one error', () => {
    expect(() => fillToolForm(form(), { time: 'late', guests: 'many', tables: 2 })).toThrow(
      /^"time" must be one of .*, not "late"\. "guests" must be a number, not "many"\. The form has no field named "tables"\. Its fields are /,
    );
  });

  it('checks dates, times, ranges and colours as an input of their type keeps them', () => {
    document.body.innerHTML = `<form toolname="plan">
      <input name="day" type="date"><input name="at" type="time"><input name="level" type="range" min="1" max="5">
      <input name="tint" type="color"><input name="mail" type="email"><select name="time"><option value="s1">Friday 18:00</option></select>
    </form>`;
    expect(() => fillToolForm(form(), { day: '2026-13-45' })).toThrow('"day" must be a date as YYYY-MM-DD, not "2026-13-45".');
    expect(() => fillToolForm(form(), { at: '25:00' })).toThrow('"at" must be a time as HH:MM');
    expect(() => fillToolForm(form(), { level: 9 })).toThrow('"level" must be a number from 1 to 5, not 9.');
    expect(() => fillToolForm(form(), { level: 'high' })).toThrow('"level" must be a number from 1 to 5');
    expect(() => fillToolForm(form(), { tint: 'red' })).toThrow('"tint" must be a colour as #rrggbb, not "red".');
    expect(() => fillToolForm(form(), { time: 'Friday 18:00' })).toThrow('"time" must be one of "s1" (Friday 18:00), not "Friday 18:00".');
    fillToolForm(form(), { day: '2026-12-05', at: '18:30', level: 4, tint: '#FF0000', mail: 'ada@example.org', time: 's1' });
    expect(Array.from(new FormData(form()).values())).toEqual(['2026-12-05', '18:30', '4', '#ff0000', 'ada@example.org', 's1']);
  });
});

describe('a required select’s placeholder option', () => {
  it('is not offered as a choice, and a call that picks it is told the real ones; an optional select keeps its empty choice', () => {
    document.body.innerHTML = `<form toolname="contact">
      <select name="topic" required><option value="">Choose…</option><option value="sales">Sales</option></select>
      <select name="team"><option value="">Anyone</option><option value="care">Care</option></select>
    </form>`;
    expect(formToolSchema(form()).properties).toMatchObject({
      topic: { enum: ['sales'] },
      team: { enum: ['', 'care'] },
    });
    expect(() => fillToolForm(form(), { topic: '' })).toThrow('"topic" must be one of "sales" (Sales), not "".');
    fillToolForm(form(), { topic: 'sales', team: '' });
    expect(Array.from(new FormData(form()).values())).toEqual(['sales', '']);
  });
});

describe('lengths and patterns, which the browser checks only against what a person typed', () => {
  beforeEach(() => {
    document.body.innerHTML = `<form toolname="sign_up">
      <input name="nick" maxlength="5"><input name="code" pattern="[A-Z]{3}" title="Three capital letters" minlength="3">
      <textarea name="bio" maxlength="10"></textarea><input name="age" type="number" maxlength="1">
    </form>`;
  });

  it('refuses a value longer than maxlength or shorter than minlength, counting as the browser does, and fills nothing', () => {
    expect(() => fillToolForm(form(), { nick: 'toolongnick', code: 'ABC' })).toThrow('"nick" must be at most 5 characters, not 11 ("toolongnick").');
    expect(() => fillToolForm(form(), { code: 'AB' })).toThrow('"code" must be at least 3 characters, not 2 ("AB").');
    expect(() => fillToolForm(form(), { bio: 'x'.repeat(11) })).toThrow('"bio" must be at most 10 characters, not 11');
    // One emoji is two UTF-16 code units, as maxlength counts it.
    expect(() => fillToolForm(form(), { nick: '😀😀😀' })).toThrow('"nick" must be at most 5 characters, not 6');
    expect((document.querySelector('[name=nick]') as HTMLInputElement).value).toBe('');
    // Empty is the required check's to refuse; a number's maxlength means nothing.
    fillToolForm(form(), { nick: 'Ada', code: '', bio: 'Hi', age: 42 });
    expect((document.querySelector('[name=age]') as HTMLInputElement).value).toBe('42');
  });

  it('gives a typed text field its pattern in the schema, as Chrome does', () => {
    expect(formToolSchema(form()).properties).toMatchObject({ code: { type: 'string', pattern: '[A-Z]{3}' }, nick: { type: 'string' } });
    expect((formToolSchema(form()).properties as Record<string, object>).nick).not.toHaveProperty('pattern');
  });
});

describe('createDeclarativeSource', () => {
  it('offers each <form toolname> as a declarative tool', async () => {
    const listing = await createDeclarativeSource().list();
    expect(listing.offered).toHaveLength(1);
    expect(listing.offered[0]).toMatchObject({ source: 'declarative', tool: { name: 'book_table', description: 'Book a table.' } });
  });

  it('submits an autosubmit form the page handles itself, and reports it', async () => {
    let submitted = '';
    form().addEventListener('submit', (event) => {
      event.preventDefault();
      submitted = String(new FormData(form()).get('name'));
    });
    const result = await createDeclarativeSource().execute('book_table', { name: 'Ada', guests: 2 }, never);
    expect(result).toBe(formSubmittedWithoutResult);
    expect(submitted).toBe('Ada');
  });

  it('neither fills nor submits the form when a value is not one it offers, and says which ones it does', async () => {
    let submitted = false;
    form().addEventListener('submit', (event) => {
      event.preventDefault();
      submitted = true;
    });
    await expect(createDeclarativeSource().execute('book_table', { name: 'Ada', guests: 2, time: 'Friday 18:00' }, never)).rejects.toThrow(
      '"time" must be one of "18:00", "20:00", not "Friday 18:00".',
    );
    expect([submitted, (document.querySelector('[name=name]') as HTMLInputElement).value]).toEqual([false, '']);
  });

  it('names every field the form refuses, selects and text areas too', async () => {
    document.body.innerHTML = `<form toolname="contact" toolautosubmit>
      <select name="topic" required><option value="">Choose…</option><option value="sales">Sales</option></select>
      <textarea name="message" required></textarea>
      <input name="email" type="email">
    </form>`;
    const refusal = createDeclarativeSource().execute('contact', { email: 'ada' }, never);
    await expect(refusal).rejects.toThrow(/^The form did not accept the values \(topic: .+; message: .+; email: .+\)\.$/);
    // Nothing was sent: the form is as it was.
    expect(document.querySelector<HTMLInputElement>('[name=email]')!.value).toBe('');
  });

  it('tells the author of a field without a name that no agent can fill it, and names it by its label when it blocks a call', async () => {
    document.body.innerHTML = `<form toolname="contact_us" tooldescription="Write to us." toolautosubmit>
      <label for="cname">Your name</label><input id="cname" required>
      <input placeholder="Phone">
      <input type="hidden" value="token"><input disabled><button>Send</button>
      <textarea name="message"></textarea>
    </form>`;
    const source = createDeclarativeSource();
    const [offered] = (await source.list()).offered;
    expect(offered?.formNotes).toEqual([
      'The field "Your name" has no name: no agent can fill it, and it is required, so every call fails. Give it a name.',
      'The field "Phone" has no name: no agent can fill it. Give it a name.',
    ]);
    await expect(source.execute('contact_us', { message: 'Hello' }, never)).rejects.toThrow(
      /^The form did not accept the values \("Your name", a field without a name: .+\)\.$/,
    );
  });

  it('keeps the page’s own handling of a submit it also stops, as a framework’s root listener does, instead of calling it a navigation', async () => {
    document.body.innerHTML = `<div id="root">${document.body.innerHTML}</div>`;
    let booked = '';
    // React 17+ style: one delegated listener at the root container calls preventDefault and stopPropagation.
    document.getElementById('root')!.addEventListener('submit', (event) => {
      event.preventDefault();
      event.stopPropagation();
      booked = String(new FormData(form()).get('name'));
    });
    const result = await createDeclarativeSource().execute('book_table', { name: 'Ada', guests: 2 }, never);
    expect(result).toBe(formSubmittedWithoutResult);
    expect(booked).toBe('Ada');
  });

  it('keeps the page’s own handling of a submit its script takes at window and stops there, since the content script listens from the document’s start', async () => {
    const source = createDeclarativeSource();
    let booked = '';
    // The page's script, which runs after the content script started: it takes every submit (a router, analytics).
    const takeEverySubmit = (event: Event): void => {
      event.preventDefault();
      event.stopImmediatePropagation();
      booked = String(new FormData(form()).get('name'));
    };
    window.addEventListener('submit', takeEverySubmit, { capture: true });
    try {
      const result = await source.execute('book_table', { name: 'Ada', guests: 2 }, never);
      expect(result).toBe(formSubmittedWithoutResult);
      expect(booked).toBe('Ada');
    } finally {
      window.removeEventListener('submit', takeEverySubmit, { capture: true });
    }
  });

  it('leaves a form without toolautosubmit for the person to submit', async () => {
    form().removeAttribute('toolautosubmit');
    const result = await createDeclarativeSource().execute('book_table', { name: 'Ada', guests: 2 }, never);
    expect(result).toBe('The form is filled in and waits for the person to submit it.');
  });

  it('follows forms added to the page', async () => {
    const source = createDeclarativeSource();
    let changes = 0;
    source.watch(() => (changes += 1));
    document.body.insertAdjacentHTML('beforeend', '<form toolname="second" tooldescription="Another form."><input name="q"></form>');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(changes).toBeGreaterThan(0);
    expect((await source.list()).offered.map((entry) => (entry.tool as { name: string }).name)).toEqual(['book_table', 'second']);
  });
});

describe('createDeclarativeSource: following the page', () => {
  const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
  const names = async (source: ReturnType<typeof createDeclarativeSource>) =>
    (await source.list()).offered.map((entry) => (entry.tool as { name: string }).name);

  /** Watches a fresh source and counts its change calls; each test stops its watcher. */
  let stop: (() => void) | undefined;
  const watched = () => {
    const source = createDeclarativeSource();
    const counter = { changes: 0, source };
    stop = source.watch(() => (counter.changes += 1));
    return counter;
  };
  afterEach(() => stop?.());

  it.each([
    ['a radio’s value set in place', () => document.querySelector('[name=seat]')!.setAttribute('value', 'bar')],
    ['an option’s text changed through its text node', () => ((document.querySelector('option')!.firstChild as Text).nodeValue = '18:30')],
    ['a field made read-only', () => document.querySelector('[name=note]')!.setAttribute('readonly', '')],
    ['a select made multiple', () => document.querySelector('select')!.setAttribute('multiple', '')],
    // Each is in the tool's schema: a pattern as the field's, a select's rows as whether its empty first choice is offered.
    ['a pattern set on a text field', () => document.querySelector('[name=name]')!.setAttribute('pattern', '[A-Z].*')],
    ['a select shown as a list of rows', () => document.querySelector('select')!.setAttribute('size', '3')],
    ['the text of a label outside the form', () => ((document.getElementById('outside-label')!.firstChild as Text).nodeValue = 'Your table')],
    ['a control outside the form that belongs to it', () => document.getElementById('outside')!.setAttribute('value', 'x')],
  ])('sees %s', async (_, change) => {
    form().id = 'booking';
    document.body.insertAdjacentHTML('beforeend', '<label id="outside-label" for="outside">Table</label><input id="outside" form="booking" name="table">');
    const counter = watched();
    await tick();
    change();
    await tick();
    expect(counter.changes).toBeGreaterThan(0);
  });

  it('skips what happens away from forms', async () => {
    document.body.insertAdjacentHTML('beforeend', '<p id="clock">10:00</p>');
    const counter = watched();
    await tick();
    (document.getElementById('clock')!.firstChild as Text).nodeValue = '10:01';
    document.body.insertAdjacentHTML('beforeend', '<div><span>news</span></div>');
    document.getElementById('clock')!.setAttribute('value', '1');
    await tick();
    expect(counter.changes).toBe(0);
  });

  it('lists and runs forms inside open shadow roots, not closed ones', async () => {
    document.body.insertAdjacentHTML('beforeend', '<div id="open"></div><div id="closed"></div>');
    const open = document.getElementById('open')!.attachShadow({ mode: 'open' });
    open.innerHTML = '<section id="inner"></section><form toolname="search_shadow" tooldescription="Search." toolautosubmit><input name="q"></form>';
    open.getElementById('inner')!.attachShadow({ mode: 'open' }).innerHTML = '<form toolname="nested" tooldescription="Nested."></form>';
    document.getElementById('closed')!.attachShadow({ mode: 'closed' }).innerHTML = '<form toolname="hidden_away" tooldescription="Closed."></form>';
    const source = createDeclarativeSource();
    expect(await names(source)).toEqual(['book_table', 'search_shadow', 'nested']);
    let query = '';
    open.querySelector('form')!.addEventListener('submit', (event) => {
      event.preventDefault();
      query = String(new FormData(event.target as HTMLFormElement).get('q'));
    });
    await expect(source.execute('search_shadow', { q: 'tides' }, never)).resolves.toBe(formSubmittedWithoutResult);
    expect(query).toBe('tides');
  });

  it('follows shadow roots that come later: with a new host, and forms added inside a known one', async () => {
    const counter = watched();
    const host = document.createElement('div');
    host.attachShadow({ mode: 'open' }).innerHTML = '<form toolname="widget" tooldescription="A widget."></form>';
    document.body.append(host);
    await tick();
    expect(counter.changes).toBeGreaterThan(0);
    expect(await names(counter.source)).toEqual(['book_table', 'widget']);
    counter.changes = 0;
    host.shadowRoot!.querySelector('form')!.insertAdjacentHTML('beforeend', '<input name="size">');
    await tick();
    expect(counter.changes).toBeGreaterThan(0);
    counter.changes = 0;
    host.remove();
    await tick();
    expect(counter.changes).toBeGreaterThan(0);
    expect(await names(counter.source)).toEqual(['book_table']);
  });

  it('finds the form of a custom element the page defines later, which no mutation announces', async () => {
    document.body.insertAdjacentHTML('beforeend', '<late-widget></late-widget>');
    const counter = watched();
    await tick();
    customElements.define(
      'late-widget',
      class extends HTMLElement {
        constructor() {
          super();
          this.attachShadow({ mode: 'open' }).innerHTML = '<form toolname="late" tooldescription="Defined late."></form>';
        }
      },
    );
    await tick(400);
    expect(counter.changes).toBeGreaterThan(0);
    expect(await names(counter.source)).toEqual(['book_table', 'late']);
  });

  it('finds a form in a shadow root attached quietly to a plain element once asked to look again', async () => {
    document.body.insertAdjacentHTML('beforeend', '<div id="plain"></div>');
    const counter = watched();
    await tick();
    counter.changes = 0;
    // No node is added or changed in the document: no observer hears this.
    document.getElementById('plain')!.attachShadow({ mode: 'open' }).innerHTML = '<form toolname="quiet" tooldescription="Attached quietly."></form>';
    await tick(400);
    expect(counter.changes).toBe(0);
    counter.source.lookAgain!();
    expect(counter.changes).toBe(1);
    expect(await names(counter.source)).toEqual(['book_table', 'quiet']);
    // Found, the root is watched like any other; asking again with nothing new tells nobody.
    counter.source.lookAgain!();
    expect(counter.changes).toBe(1);
    document.getElementById('plain')!.shadowRoot!.querySelector('form')!.insertAdjacentHTML('beforeend', '<input name="size">');
    await tick();
    expect(counter.changes).toBeGreaterThan(1);
  });

  it.each([
    ['the panel looks again', (source: ReturnType<typeof createDeclarativeSource>) => source.lookAgain!()],
    ['a call runs it', (source: ReturnType<typeof createDeclarativeSource>) => source.execute('search', { q: 'tides' }, never)],
  ])('on a page with no other form, follows a form in a quietly attached shadow root once %s', async (_, find) => {
    document.body.innerHTML = '<div id="plain"></div><p>An article.</p>';
    const counter = watched();
    await tick();
    const shadow = document.getElementById('plain')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<form toolname="search" tooldescription="Search."><input name="q"></form>';
    await find(counter.source);
    await tick();
    const form = shadow.querySelector('form')!;
    const changesAfter = async (change: () => void) => {
      counter.changes = 0;
      change();
      await tick();
      return counter.changes;
    };

    expect(await changesAfter(() => form.insertAdjacentHTML('beforeend', '<input name="size">'))).toBeGreaterThan(0);
    expect(await changesAfter(() => form.setAttribute('toolname', 'find'))).toBeGreaterThan(0);
    expect(await names(counter.source)).toEqual(['find']);
    expect(await changesAfter(() => form.remove())).toBeGreaterThan(0);
    expect(await names(counter.source)).toEqual([]);
  });
});
