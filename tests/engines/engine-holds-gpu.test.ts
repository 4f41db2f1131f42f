import { describe, expect, it } from 'vitest';
import { createEngine } from '../../lib/engines/create-engine';
import { engineIds } from '../../lib/engines/engine';
import { engineHoldsGpu } from '../../lib/engines/engine-holds-gpu';
import { defaultSettings } from '../../lib/settings';

describe('engines that hold the GPU', () => {
  it.each(engineIds)('%s says so as an engine exactly where the table the options page reads says so', (id) => {
    expect(createEngine({ ...defaultSettings, engine: id }).holdsGpu === true).toBe(engineHoldsGpu[id]);
  });

  it('are WebLLM alone today', () => {
    expect(engineIds.filter((id) => engineHoldsGpu[id])).toEqual(['webllm']);
  });
});
