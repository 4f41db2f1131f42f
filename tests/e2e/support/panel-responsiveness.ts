import type { Page } from 'playwright-core';

/** How quickly the side panel answered while something else was going on. */
export interface Responsiveness {
  /** Per key pressed: from the key event to the next frame, with the character in the input box (ms). */
  keyLatencies: number[];
  /** Keys whose character was not in the input box at the next frame. */
  keysMissing: number;
  /** Per key: the same seen from the test, pressing the key and reading it back over the DevTools Protocol (ms). */
  keyRoundTrips: number[];
  /** The longest time between two animation frames while the probe ran (ms). */
  longestFrameGap: number;
  frames: number;
}

/** What the probe keeps inside the panel. */
interface ProbeState {
  keyLatencies: number[];
  keysMissing: number;
  longestFrameGap: number;
  frames: number;
  running: boolean;
}

type ProbeWindow = typeof globalThis & { volumeProbe?: ProbeState };

/**
 * Starts watching the panel: every key pressed in the chat input is timed from its event to the
 * next frame, and a requestAnimationFrame loop keeps the longest gap between frames.
 */
export async function startPanelProbe(panel: Page): Promise<void> {
  // Handlers are object methods: a helper const would be renamed by the TypeScript runner and break in the page.
  await panel.getByTestId('chat-input').evaluate((input) => {
    const probeWindow = window as ProbeWindow;
    if (probeWindow.volumeProbe) probeWindow.volumeProbe.running = false;
    const textarea = input as HTMLTextAreaElement;
    const state: ProbeState = { keyLatencies: [], keysMissing: 0, longestFrameGap: 0, frames: 0, running: true };
    const probe = {
      lastFrame: performance.now(),
      onKey(event: KeyboardEvent) {
        if (!state.running || event.key.length !== 1) return;
        const pressedAt = event.timeStamp;
        requestAnimationFrame(() => {
          if (textarea.value.endsWith(event.key)) state.keyLatencies.push(performance.now() - pressedAt);
          else state.keysMissing += 1;
        });
      },
      onFrame(now: number) {
        if (!state.running) return;
        state.longestFrameGap = Math.max(state.longestFrameGap, now - probe.lastFrame);
        state.frames += 1;
        probe.lastFrame = now;
        requestAnimationFrame((next) => probe.onFrame(next));
      },
    };
    probeWindow.volumeProbe = state;
    textarea.addEventListener('keydown', (event) => probe.onKey(event));
    requestAnimationFrame((now) => probe.onFrame(now));
  });
}

export interface TypingOptions {
  /** Keeps typing while this says so… */
  while: () => boolean;
  /** …and at least this many keys. */
  atLeast: number;
  intervalMs: number;
  /** Runs each key press; lets the test take the input box between two keys (to send a request). */
  exclusive?: (press: () => Promise<void>) => Promise<void>;
}

/** Types letters into the chat input, one every `intervalMs`, timing each round trip from the test. */
export async function typeProbeKeys(panel: Page, options: TypingOptions): Promise<number[]> {
  const input = panel.getByTestId('chat-input');
  const roundTrips: number[] = [];
  for (let index = 0; index < options.atLeast || options.while(); index += 1) {
    const key = String.fromCharCode(97 + (index % 26));
    await (options.exclusive ?? ((press) => press()))(async () => {
      // Sending a request between two keys moves the focus.
      await input.focus();
      const pressed = performance.now();
      await panel.keyboard.press(key);
      await input.evaluate((element, wanted) => {
        if (!(element as HTMLTextAreaElement).value.endsWith(wanted)) throw new Error(`The key "${wanted}" did not reach the input box.`);
      }, key);
      roundTrips.push(performance.now() - pressed);
    });
    await panel.waitForTimeout(options.intervalMs);
  }
  return roundTrips;
}

/** Stops the probe, empties the input box and returns what it measured. */
export async function stopPanelProbe(panel: Page, keyRoundTrips: number[]): Promise<Responsiveness> {
  // One more frame, so that the last key's measure is in.
  await panel.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const state = await panel.evaluate(() => {
    const probe = (window as ProbeWindow).volumeProbe;
    if (!probe) throw new Error('The panel probe was not started.');
    probe.running = false;
    return { ...probe };
  });
  await panel.getByTestId('chat-input').fill('');
  return {
    keyLatencies: state.keyLatencies,
    keysMissing: state.keysMissing,
    keyRoundTrips,
    longestFrameGap: state.longestFrameGap,
    frames: state.frames,
  };
}
