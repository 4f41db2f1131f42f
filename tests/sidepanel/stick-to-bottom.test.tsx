// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { useStickToBottom } from '@/components/chat/use-stick-to-bottom';

// happy-dom lays nothing out: the scroller is 400 px tall, its content as tall as the test says.
let resize: (() => void) | undefined;
const realResizeObserver = globalThis.ResizeObserver;
beforeAll(() => {
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: () => void) {
      resize = () => this.callback();
    }
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterAll(() => {
  globalThis.ResizeObserver = realResizeObserver;
});
afterEach(() => {
  document.body.innerHTML = '';
});

let toEnd: (() => void) | undefined;

function Box({ followKey, newsKey }: { followKey: string; newsKey?: number }) {
  const stick = useStickToBottom<HTMLDivElement, HTMLDivElement>(followKey, newsKey);
  toEnd = stick.toEnd;
  return (
    <div id="scroller" ref={stick.scroller} data-newer-below={String(stick.newerBelow)}>
      <div ref={stick.content} />
    </div>
  );
}

async function setup(height: { value: number }) {
  const container = document.createElement('div');
  document.body.append(container);
  const scroller = () => container.querySelector<HTMLDivElement>('#scroller')!;
  let top = 0;
  let news = 0;
  const show = async (followKey: string, newsKey = news) => {
    await act(() => render(<Box followKey={followKey} newsKey={newsKey} />, container));
  };
  await show('tab 1: 1 turn');
  Object.defineProperty(scroller(), 'clientHeight', { get: () => 400 });
  Object.defineProperty(scroller(), 'scrollHeight', { get: () => height.value });
  Object.defineProperty(scroller(), 'scrollTop', {
    get: () => top,
    set: (value: number) => (top = Math.max(0, Math.min(value, height.value - 400))),
  });
  const grow = (to: number) =>
    act(() => {
      height.value = to;
      resize!();
    });
  const scrollBy = (dy: number) =>
    act(() => {
      scroller().scrollTop = top + dy;
      scroller().dispatchEvent(new Event('scroll'));
    });
  const newerBelow = () => scroller().dataset.newerBelow === 'true';
  /** New text comes: the news key changes, and the content grows. */
  const newText = async (to: number) => {
    news += 1;
    await show('tab 1: 1 turn', news);
    await grow(to);
  };
  return { top: () => top, grow, scrollBy, show, newerBelow, newText };
}

it('follows a streaming reply, lets go at one line scrolled up, and follows again at the end', async () => {
  const box = await setup({ value: 2000 });
  await box.grow(2020);
  expect(box.top()).toBe(1620);
  // One ArrowUp (40 px) to read the line above: the next streamed line leaves the view alone.
  await box.scrollBy(-40);
  await box.grow(2040);
  expect(box.top()).toBe(1580);
  // Back at the end: it follows again.
  await box.scrollBy(1_000);
  await box.grow(2060);
  expect(box.top()).toBe(1660);
});

it('goes to the end for a new request or another tab, even when scrolled up', async () => {
  const box = await setup({ value: 2000 });
  await box.grow(2020);
  await box.scrollBy(-600);
  await box.grow(2400);
  expect(box.top()).toBe(1020);
  await box.show('tab 1: 2 turns');
  expect(box.top()).toBe(2000);
});

it('says when new text came below while the person reads above, until they are back at the end; a section they open is no news', async () => {
  const box = await setup({ value: 2000 });
  await box.newText(2020);
  expect(box.newerBelow()).toBe(false);
  await box.scrollBy(-300);
  // The person opens a tool card's result: the content grows, with nothing new.
  await box.grow(2300);
  expect(box.newerBelow()).toBe(false);
  await box.newText(2400);
  expect(box.newerBelow()).toBe(true);
  // Scrolled down to the end by hand: nothing is below any more.
  await box.scrollBy(1_000);
  expect(box.newerBelow()).toBe(false);
  // Or taken there by the button, which follows again.
  await box.scrollBy(-300);
  await box.newText(2500);
  expect(box.newerBelow()).toBe(true);
  await act(() => toEnd!());
  expect({ top: box.top(), newerBelow: box.newerBelow() }).toEqual({ top: 2100, newerBelow: false });
  await box.newText(2560);
  expect(box.top()).toBe(2160);
});

it('follows again when the person scrolls down to an end that moved on while they scrolled, as a streaming reply makes it', async () => {
  const box = await setup({ value: 2400 });
  await box.scrollBy(-300);
  // A wheel's smooth scroll lands where the end was when it began; the reply grew meanwhile.
  await box.newText(2460);
  await box.scrollBy(300);
  expect(box.newerBelow()).toBe(false);
  await box.newText(2500);
  expect(box.top()).toBe(2100);
  // Scrolling down through what is far above the end does not follow.
  await box.scrollBy(-1_000);
  await box.scrollBy(300);
  await box.newText(2560);
  expect(box.top()).toBe(1400);
  expect(box.newerBelow()).toBe(true);
});

it('follows again once End is pressed, though the end moved on before the scroll reached it; not End in a field', async () => {
  const box = await setup({ value: 2000 });
  await box.grow(2020);
  await box.scrollBy(-800);
  await box.newText(2400);
  expect(box.newerBelow()).toBe(true);
  const press = (target: Element) => act(() => void target.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true })));
  // End in a field moves its caret: the view stays where the person reads.
  const field = document.createElement('textarea');
  document.querySelector('#scroller')!.append(field);
  await press(field);
  await box.newText(2500);
  expect(box.newerBelow()).toBe(true);
  // With the focus on the page's body, the box last clicked in is what End scrolls: a long result's own.
  const result = document.createElement('pre');
  result.style.overflowY = 'auto';
  Object.defineProperty(result, 'scrollHeight', { get: () => 600 });
  Object.defineProperty(result, 'clientHeight', { get: () => 240 });
  document.querySelector('#scroller')!.append(result);
  await act(() => void result.dispatchEvent(new Event('pointerdown', { bubbles: true })));
  await press(document.body);
  await box.newText(2550);
  expect(box.newerBelow()).toBe(true);
  // On the conversation: the browser's scroll stops short of an end that moved on (here, not at all),
  // yet the next text brings the view to the end, and it follows from there.
  const answer = document.createElement('p');
  document.querySelector('#scroller')!.append(answer);
  await act(() => void answer.dispatchEvent(new Event('pointerdown', { bubbles: true })));
  await press(document.body);
  expect(box.newerBelow()).toBe(false);
  await box.newText(2600);
  expect(box.top()).toBe(2200);
  await box.newText(2700);
  expect(box.top()).toBe(2300);
  expect(box.newerBelow()).toBe(false);
});
