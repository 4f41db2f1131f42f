import type { AgentEvent } from '@webmcp-agents/local-agent';
import { describe, expect, it } from 'vitest';
import { watchRepeatedStop } from '../../lib/agent/repeated-stop';

const stopMessage = 'The model asked 3 times for "delete_notes", which this page does not offer, so the run was stopped.';
const ran = (step: number, name: string): AgentEvent => ({ type: 'tool-result', step, callId: `${step}.${name}`, name, output: { text: 'ok' }, durationMs: 1 });
const stop = (step: number): AgentEvent => ({ type: 'tool-error', step, name: 'delete_notes', kind: 'repeated', message: stopMessage });
const start = (step: number): AgentEvent => ({ type: 'step-start', step, tools: [], messages: [] });

function noticeAfter(events: AgentEvent[]): string | undefined {
  const watch = watchRepeatedStop();
  events.forEach((event) => watch.see(event));
  return watch.notice;
}

describe('the repeated-call stop notice', () => {
  it('names each tool of the stopping reply that ran, once, in the order they ran', () => {
    const events = [start(1), ran(1, 'get_cart'), start(2), ran(2, 'search_products'), ran(2, 'add_to_cart'), ran(2, 'search_products'), stop(2)];
    expect(noticeAfter(events)).toBe(stopMessage.replace(/\.$/, ' after search_products and add_to_cart ran.'));
  });

  it('is the loop\'s sentence as it is where no call of that reply ran', () => {
    expect(noticeAfter([start(1), ran(1, 'get_cart'), start(2), stop(2)])).toBe(stopMessage);
    expect(noticeAfter([start(1), ran(1, 'get_cart')])).toBeUndefined();
  });
});
