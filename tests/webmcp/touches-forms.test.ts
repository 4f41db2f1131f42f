// @vitest-environment happy-dom
import { afterEach, expect, it } from 'vitest';
import { ToolFormRoots } from '@/lib/webmcp/tool-form-roots';
import { touchesForms } from '@/lib/webmcp/touches-forms';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A change as a MutationObserver would report it. */
function change(target: Node, fields: { attributeName?: string; addedNodes?: Node[]; removedNodes?: Node[] } = {}): MutationRecord {
  return { target, attributeName: fields.attributeName ?? null, addedNodes: fields.addedNodes ?? [], removedNodes: fields.removedNodes ?? [] } as unknown as MutationRecord;
}

it('counts a change inside a form or a label, and a control that names its form from outside it', () => {
  document.body.innerHTML = '<form id="order"><input name="day"></form><label>Size <span>S</span></label><input form="order" name="note"><p>News</p>';
  const roots = new ToolFormRoots();
  expect(touchesForms(change(document.querySelector('[name=day]')!, { attributeName: 'value' }), roots)).toBe(true);
  expect(touchesForms(change(document.querySelector('span')!.firstChild!), roots)).toBe(true);
  expect(touchesForms(change(document.querySelector('[name=note]')!, { attributeName: 'name' }), roots)).toBe(true);
  expect(touchesForms(change(document.querySelector('p')!, { attributeName: 'class' }), roots)).toBe(false);
});

it('counts a control moved to another form, and a form added or removed anywhere', () => {
  document.body.innerHTML = '<p>News</p>';
  const roots = new ToolFormRoots();
  const paragraph = document.querySelector('p')!;
  const wrapper = document.createElement('div');
  wrapper.appendChild(document.createElement('form'));
  expect(touchesForms(change(paragraph, { attributeName: 'form' }), roots)).toBe(true);
  expect(touchesForms(change(document.body, { addedNodes: [wrapper] }), roots)).toBe(true);
  expect(touchesForms(change(document.body, { removedNodes: [document.createElement('form')] }), roots)).toBe(true);
  expect(touchesForms(change(document.body, { addedNodes: [document.createElement('div')] }), roots)).toBe(false);
});

it('counts an element removed that held a shadow root already known', () => {
  const host = document.body.appendChild(document.createElement('div'));
  host.attachShadow({ mode: 'open' }).innerHTML = '<form toolname="buy"></form>';
  const roots = new ToolFormRoots();
  roots.walk();
  expect(touchesForms(change(document.body, { removedNodes: [host] }), roots)).toBe(true);
});
