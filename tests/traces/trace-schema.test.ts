import { describe, expect, it } from 'vitest';
import { createTraceFile, readTraceFile } from '@/lib/traces/trace-file';
import { traceResponseSchemas } from '@/lib/traces/trace-protocol';
import type { StoredTrace } from '@/lib/traces/trace-schema';

/** A time a recorder could have written: runs are dated between 2020 and now. */
const at = Date.UTC(2025, 4, 1);

/** A run of one step whose call, and the model's parsed call, have an argument named "__proto__", as a page's form field may be. */
function traceWithProtoArgument(): StoredTrace {
  // JSON makes "__proto__" a key like any other, as the model's arguments and a file bring it.
  const args = JSON.parse('{"__proto__": "blue", "q": "mug"}') as Record<string, unknown>;
  const parameters = JSON.parse('{"__proto__": {"type": "string"}, "type": "object"}') as Record<string, unknown>;
  return {
    run: { id: 'run-1', tabId: 1, url: 'https://a.example/', origin: 'https://a.example', engineId: 'replay', model: '', request: 'x', startedAt: at, stepCount: 1, sizeBytes: 10, updatedAt: at + 1, outcome: 'answer', endedAt: at + 2 },
    steps: [
      {
        runId: 'run-1',
        step: 1,
        startedAt: at + 1,
        tools: [{ name: 'search', description: 'Search.', parameters, score: 1 }],
        messages: [],
        raw: 'hi',
        complete: true,
        prose: 'hi',
        parsed: { text: 'hi', calls: [{ name: 'search', arguments: args }], errors: [] },
        calls: [{ callId: '1.1', name: 'search', arguments: args, calledAt: at + 1 }],
        problems: [],
        usage: {},
      },
    ],
  };
}

describe('a trace file', () => {
  it('keeps an argument or a parameter named "__proto__" through export and import', async () => {
    // The file as the viewer receives it from the background, then saves it as text.
    const exported = traceResponseSchemas['traces-export']().parse({ file: createTraceFile([traceWithProtoArgument()], at + 5) });
    const text = JSON.stringify(exported.file);
    expect(text).toContain('"arguments":{"__proto__":"blue","q":"mug"}');
    const read = await readTraceFile(text);
    if (!read.ok) throw new Error(read.message);
    const [step] = read.traces[0]!.steps;
    expect(JSON.stringify(step!.calls[0]!.arguments)).toBe('{"__proto__":"blue","q":"mug"}');
    expect(JSON.stringify(step!.parsed!.calls[0]!.arguments)).toBe('{"__proto__":"blue","q":"mug"}');
    expect(Object.keys(step!.tools[0]!.parameters)).toEqual(['__proto__', 'type']);
  });

  it('still says where a call’s arguments are not an object', async () => {
    const file = createTraceFile([traceWithProtoArgument()], at + 5);
    (file.runs[0]!.steps[0]!.calls[0] as { arguments: unknown }).arguments = ['blue'];
    expect(await readTraceFile(JSON.stringify(file))).toEqual({ ok: false, message: 'The trace file is damaged: runs[0].steps[0].calls[0].arguments: Invalid input: expected a JSON object.' });
  });

  it('reads a step that says it was not kept from a loop, as a hand-edited or other writer’s file may', async () => {
    const file = createTraceFile([traceWithProtoArgument()], at + 5);
    (file.runs[0]!.steps[0]! as { loopKept?: boolean }).loopKept = false;
    const read = await readTraceFile(JSON.stringify(file));
    expect(read.ok).toBe(true);
  });
});
