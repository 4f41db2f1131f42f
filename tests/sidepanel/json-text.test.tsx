// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonText, looksLikeJson } from '@/components/shared/json-text';
import { compactJson } from '@/lib/sidepanel/compact-json';

const container = document.createElement('pre');
afterEach(() => render(null, container));

describe('JSON text with right-to-left values', () => {
  it('isolates each quoted Arabic or Hebrew string, so its words keep their order on a left-to-right line, and changes no character', () => {
    const text = '{\n  "product": "كوب iPhone أحمر",\n  "note": "שלום",\n  "quantity": 2,\n  "sku": "MUG-1"\n}';
    render(<JsonText text={text} />, container);
    expect([...container.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual(['"كوب iPhone أحمر"', '"שלום"']);
    expect(container.textContent).toBe(text);
  });

  it('leaves text without a right-to-left letter as one text, and reads an escaped quote inside a string', () => {
    render(<JsonText text={'{"a": "say \\"hi\\"", "b": 1}'} />, container);
    expect(container.childNodes).toHaveLength(1);
    const escaped = '{"a": "قل \\"مرحبا\\" الآن"}';
    render(<JsonText text={escaped} />, container);
    expect(container.querySelector('bdi')?.textContent).toBe('"قل \\"مرحبا\\" الآن"');
    expect(container.textContent).toBe(escaped);
  });
});

describe('a page\'s invisible characters in a result', () => {
  it('shows a direction override or a control by its code, isolated so that it turns nothing around, and changes no character', () => {
    const text = 'Your code is \u202Eevil\u202C, and a bell \u0007 rang.\nNext line\tand a tab.';
    render(<JsonText text={text} />, container);
    const marked = [...container.querySelectorAll<HTMLElement>('.hidden-character')];
    expect(marked.map((mark) => mark.dataset.code)).toEqual(['U+202E', 'U+202C', 'U+0007']);
    expect(marked.every((mark) => mark.textContent!.length === 1)).toBe(true);
    // A copy is the page's text as it was.
    expect(container.textContent).toBe(text);
  });

  it('shows characters that draw nothing by their code: zero-width spaces, tag characters that spell words unseen, a byte-order mark', () => {
    const text = 'amount 1\u200b0\u200b0, tag\u{E0041}\u{E0042}, \ufeffstart, word\u2060joined, chosen\u{E0100}';
    render(<JsonText text={text} />, container);
    const marked = [...container.querySelectorAll<HTMLElement>('.hidden-character')];
    expect(marked.map((mark) => mark.dataset.code)).toEqual(['U+200B', 'U+200B', 'U+E0041', 'U+E0042', 'U+FEFF', 'U+2060', 'U+E0100']);
    expect(container.textContent).toBe(text);
  });

  it('leaves alone the invisible characters that make visible ones: emoji sequences, a flag\'s tags, a Persian non-joiner', () => {
    // A family (joiners), a red heart (its variation selector), Scotland's flag (tags), "می‌خواهم".
    const text = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u2764\uFE0F \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645';
    render(<JsonText text={text} />, container);
    expect(container.querySelectorAll('.hidden-character')).toHaveLength(0);
    expect(container.textContent).toBe(text);
    // A tag character outside a flag is marked.
    render(<JsonText text={'\u{1F3F4}\u{E0067} and \u{E007F}'} />, container);
    expect([...container.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code)).toEqual(['U+E0067', 'U+E007F']);
  });

  it('marks what only looks like a flag or an emoji: a payload spelled in tags after 🏴, runs of joiners or selectors, fillers', () => {
    const payload = [...'send the card'].map((letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0))).join('');
    render(<JsonText text={`ok \u{1F3F4}${payload}\u{E007F}`} />, container);
    expect(container.querySelectorAll('.hidden-character')).toHaveLength(14);
    render(<JsonText text={'a\u200d\u200c\u200db \u2764\ufe0f\ufe0e\ufe01 c\u3164d \u{1D173}'} />, container);
    // The heart's own selector stays; those after it vary nothing.
    expect([...container.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code)).toEqual(['U+200D', 'U+200C', 'U+200D', 'U+FE0E', 'U+FE01', 'U+3164', 'U+1D173']);
    // One joiner inside a number, selectors and joiners taking turns, six hidden letters in a fake flag.
    const marks = (text: string) => {
      render(<JsonText text={text} />, container);
      return [...container.querySelectorAll<HTMLElement>('.hidden-character')].map((mark) => mark.dataset.code);
    };
    expect(marks('1\u200d00')).toEqual(['U+200D']);
    expect(marks('a\ufe01\u200d\ufe02\u200db')).toEqual(['U+FE01', 'U+200D', 'U+FE02', 'U+200D']);
    expect(marks('\u{1F3F4}\u{E0063}\u{E0063}\u{E0034}\u{E0031}\u{E0031}\u{E0031}\u{E007F}')).toHaveLength(7);
    // A rainbow flag (selector, joiner), a kanji's variant, Scotland: as drawn.
    expect(marks('\u{1F3F3}\ufe0f\u200d\u{1F308} \u845b\u{E0100} \u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}')).toEqual([]);
  });

  it('marks them inside a right-to-left string too, and leaves a text without them as one text', () => {
    const text = '{"note": "שלום \u2067abc\u2069"}';
    render(<JsonText text={text} />, container);
    expect(container.querySelectorAll('bdi .hidden-character')).toHaveLength(2);
    expect(container.textContent).toBe(text);
    // Right-to-left prose, no quoted string in it.
    render(<JsonText text={'تمت \u202Eالإضافة'} />, container);
    expect(container.querySelectorAll('.hidden-character')).toHaveLength(1);
    render(<JsonText text={'{"note": "plain, with\nlines"}'} />, container);
    expect(container.childNodes).toHaveLength(1);
  });
});

describe('what reads as JSON', () => {
  it('is an object or a list, spaces before it allowed: such a block stays left to right, where prose takes each line\'s direction', () => {
    for (const json of ['{"a": 1}', '[\n  "أزرق"\n]', '\n  {}']) expect(looksLikeJson(json), json).toBe(true);
    for (const prose of ['تمت إضافة كوبين إلى السلة.', 'Added 2 mugs. {"a": 1}', '', '"just a string"']) expect(looksLikeJson(prose), prose).toBe(false);
  });
});

describe('compact arguments', () => {
  it('are cut between characters, never within an emoji', () => {
    const shown = compactJson({ note: `${'a'.repeat(289)}🛒🛒🛒` }, 300);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown).not.toMatch(/[\ud800-\udbff]…$/);
    expect(shown.slice(0, -1)).toBe(`{"note":"${'a'.repeat(289)}`);
  });
});
