import { describe, expect, it } from 'vitest';
import { describeEngineError } from '../../lib/agent/load-failure';
import { EngineError } from '../../lib/engines/engine';

describe('what the person reads of a load that failed', () => {
  it('says an engine’s own error with its next step', () => {
    const error = new EngineError('no-webgpu', 'WebGPU is not available here.', 'Turn on hardware acceleration in Chrome.');
    expect(describeEngineError(error)).toEqual({ message: 'WebGPU is not available here.', hint: 'Turn on hardware acceleration in Chrome.' });
  });

  it('keeps the next step of an engine error that crossed from another context by its name', () => {
    const crossed = Object.assign(new Error('The GPU was lost.'), { name: 'EngineError', hint: 'Reload the page.' });
    expect(describeEngineError(crossed)).toEqual({ message: 'The GPU was lost.', hint: 'Reload the page.' });
  });

  it('says any other fault as a model that could not load', () => {
    expect(describeEngineError(new TypeError('fetch failed'))).toEqual({ message: 'The model could not load: fetch failed' });
    expect(describeEngineError('quota exceeded')).toEqual({ message: 'The model could not load: quota exceeded' });
  });
});
