// @vitest-environment happy-dom
import { afterEach, expect, it } from 'vitest';
import { outermostConnected } from '@/lib/webmcp/outermost-connected';

afterEach(() => {
  document.body.innerHTML = '';
});

it('walks an element added with its parent only once, through its parent', () => {
  const list = document.body.appendChild(document.createElement('ul'));
  const item = list.appendChild(document.createElement('li'));
  const aside = document.body.appendChild(document.createElement('aside'));
  expect(outermostConnected(new Set([item, list, aside]))).toEqual([list, aside]);
});

it('skips an element the page removed again before the batch was read', () => {
  const gone = document.body.appendChild(document.createElement('div'));
  gone.remove();
  expect(outermostConnected(new Set([gone]))).toEqual([]);
});

it('finds an element in a shadow root held by its host, when the host was added too', () => {
  const host = document.body.appendChild(document.createElement('div'));
  const inner = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('form'));
  expect(outermostConnected(new Set([inner, host]))).toEqual([host]);
});
