import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateTokens, fitShownTools, hermesFormat, type ShownTool } from '@webmcp-agents/local-agent';

const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 5_000, 200_000);

const shownTools = fc.array(
  fc.record({
    name: fc.string({ minLength: 1, maxLength: 6 }),
    size: fc.nat({ max: 400 }),
    wide: fc.boolean(),
    score: fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom(0.5, Infinity, -Infinity, -0)),
  }),
  { maxLength: 12 },
);

function toShown(list: Array<{ name: string; size: number; wide: boolean; score: number }>): ShownTool[] {
  return list.map(({ name, size, wide, score }, index) => ({
    tool: { name: `${name}${index}`, description: (wide ? 'é' : 'x').repeat(size), parameters: { type: 'object' } },
    score,
  }));
}

const additive = (shown: readonly ShownTool[]) => `You are an agent.\n${shown.map(({ tool }) => `${tool.name}: ${tool.description}`).join('\n')}`;

describe('fitShownTools', () => {
  it('keeps an in-order subset that fits (or the best alone), maximal, best first, and says the prompt it measured', () => {
    fc.assert(
      fc.property(shownTools, fc.integer({ min: -50, max: 1_200 }), (list, room) => {
        const shown = toShown(list);
        const result = fitShownTools(shown, room, additive);
        const again = fitShownTools(shown, room, additive);
        if (result.system !== additive(result.shown) || again.system !== result.system) return false;
        // In order, each at most once.
        let at = -1;
        for (const tool of result.shown) {
          const next = shown.indexOf(tool, at + 1);
          if (next < 0) return false;
          at = next;
        }
        if (shown.length <= 1 || estimateTokens(additive(shown)) <= room) return result.shown === shown;
        const fits = (list: readonly ShownTool[]) => estimateTokens(additive(list)) <= room;
        if (!fits(result.shown)) {
          // Only where nothing fits alone: the best, alone.
          const best = [...shown].sort((l, r) => r.score - l.score || shown.indexOf(l) - shown.indexOf(r))[0]!;
          return result.shown.length === 1 && result.shown[0] === best && shown.every((tool) => !fits([tool]));
        }
        // Maximal: no tool left out still fits beside those kept.
        const left = shown.filter((tool) => !result.shown.includes(tool));
        if (left.some((tool) => fits(shown.filter((candidate) => result.shown.includes(candidate) || candidate === tool)))) return false;
        // The best tool that fits alone is kept.
        const firstFitting = shown
          .map((tool, index) => ({ tool, index }))
          .sort((l, r) => r.tool.score - l.tool.score || l.index - r.index)
          .find(({ tool }) => fits([tool]));
        return firstFitting === undefined || result.shown.includes(firstFitting.tool);
      }),
      { numRuns: runs },
    );
  }, 120_000);

  it('with the real prompt: a system prompt that fits the room', () => {
    fc.assert(
      fc.property(shownTools, fc.integer({ min: 200, max: 3_000 }), (list, room) => {
        const shown = toShown(list);
        const promptFor = (tools: readonly ShownTool[]) => hermesFormat.systemPrompt(tools.map(({ tool }) => tool), 'Be brief.');
        const result = fitShownTools(shown, room, promptFor);
        return result.system === promptFor(result.shown) && (result.shown.length <= 1 || estimateTokens(result.system) <= room);
      }),
      { numRuns: Math.ceil(runs / 10) },
    );
  }, 120_000);

  it('NaN scores (a scorer slip that bypassed readScore) still give one answer', () => {
    const shown = toShown([{ name: 'a', size: 300, wide: false, score: NaN }, { name: 'b', size: 300, wide: false, score: 2 }, { name: 'c', size: 300, wide: false, score: NaN }, { name: 'd', size: 10, wide: false, score: 1 }]);
    const first = fitShownTools(shown, 150, additive);
    expect(fitShownTools(shown, 150, additive).shown).toEqual(first.shown);
  });
});
