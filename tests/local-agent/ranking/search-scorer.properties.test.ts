import type { ToolDescriptor } from '@webmcp-agents/chat';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFieldedBm25Scorer } from '../../../lib/local-agent/ranking/fielded-bm25-scorer';

// Cases per property: 2·10^3 by default (each builds an index); `npm run fuzz` asks for more, up to
// 10^5: at about 0.3 ms a case, 10^6 would take five minutes on its own.
const runs = Math.min(Number(process.env['FUZZ_RUNS']) || 2_000, 100_000);
const timeout = 20_000 + runs * 5;

const words = ['search', 'cart', 'add', 'Book', 'getUser', 'order_id', '搜索', 'the', '__proto__'];
const text = fc.oneof(
  fc.string({ maxLength: 60, unit: 'binary' }),
  fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((parts) => parts.join(' ')),
);

/** Anything a page might pass off as a tool: mostly tool-shaped, sometimes not at all. */
const junkTool: fc.Arbitrary<ToolDescriptor> = fc
  .oneof(
    fc.record({ name: text, description: text, inputSchema: fc.jsonValue({ maxDepth: 4 }) }),
    fc.record({
      name: fc.anything(),
      title: fc.anything(),
      description: fc.anything(),
      inputSchema: fc.anything(),
    }),
    fc.anything(),
  )
  .map((value) => value as ToolDescriptor);

describe('searchScorer on arbitrary input', () => {
  it(
    'returns one finite, non-negative score per tool and never throws',
    () => {
      const recentNames = fc.array(fc.anything(), { maxLength: 3 }).map((names) => names as string[]);
      fc.assert(
        fc.property(fc.array(junkTool, { maxLength: 12 }), text, recentNames, (tools, query, recent) => {
          const scorer = createFieldedBm25Scorer();
          const scores = scorer(tools, query, recent);
          expect(scores).toHaveLength(tools.length);
          for (const score of scores) expect(Number.isFinite(score) && score >= 0).toBe(true);
          expect(scorer(tools, query, recent)).toEqual(scores);
        }),
        { numRuns: runs },
      );
    },
    timeout,
  );
});
