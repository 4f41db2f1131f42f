import { describe, expect, it } from 'vitest';
import { mayOpenCodeCall } from '../../lib/local-agent/calls-written-as-code';
import { mayOpenFencedCall } from '../../lib/local-agent/parsing/read-fenced-calls';

const pageTools = new Set(['search_products', 'open_cart']);

/** Whether the stream holds a block that starts so (it may yet be a call), rather than showing it. */
const held = (start: string) => mayOpenFencedCall(start) || mayOpenCodeCall(start, pageTools);

// That a start judged prose never closes as a call is checked on arbitrary blocks in fuzz.properties.test.ts.
describe('the start of a fenced block, as it streams', () => {
  it.each([
    ['Python that imports', '```python\nimport json'],
    ['a Python function', '```python\ndef total(items):'],
    ['a call to a function the page does not offer', '```python\nprint('],
    ['a Python list of numbers', '```python\n[1, 2'],
    ['a shell command', '```bash\nls -la'],
    ['JavaScript', '```js\nconst price = 12;'],
    ['a JavaScript call to a tool, which only Python-like code can be', '```js\nsearch_products('],
    ['HTML', '```html\n<div class="card">'],
    ['a whole HTML page', '```html\n<html>\n<head>'],
    ['a plain listing', '```\nmug 12 USD'],
    ['a JSON string', '```json\n"text"'],
  ])('is shown as it streams: %s', (_, start) => {
    expect(held(start)).toBe(false);
  });

  it.each([
    ['a JSON object', '```json\n{'],
    ['a JSON list, its first item not come yet', '```\n[ '],
    ['a JSON list of objects', '```\n[{'],
    ['a Mistral call list, half written', '```\n[TOOL'],
    ['a function tag', '```\n<function=search_products>'],
    ['a tag around a JSON call', '```\n<calls>\n{'],
    ['a tool of the page written as code, its name half written', '```python\nsearch'],
    ['a tool of the page written as code', '```tool_code\nsearch_products(query="mug")'],
    ['a list of calls written as code', '```py\n[ open_cart'],
    ['a body not started yet', '```json\n\n'],
    ['a language that may go on', '```pyth'],
    ['backticks that may close an empty block', '```\n``'],
  ])('is held, as it may yet be a call: %s', (_, start) => {
    expect(held(start)).toBe(true);
  });
});
