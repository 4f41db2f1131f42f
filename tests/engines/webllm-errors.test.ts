import { describe, expect, it } from 'vitest';
import { isDeviceLost } from '../../lib/engines/webllm/webllm-errors';

describe('isDeviceLost', () => {
  it('knows a lost GPU device however WebLLM and Chrome word it', () => {
    const named = Object.assign(new Error('The WebGPU device was lost while loading the model.'), { name: 'DeviceLostError' });
    for (const error of [
      named,
      new Error('Device was lost. This can happen due to insufficient memory or other GPU constraints.'),
      new Error('Device is lost'),
      new Error('GPU device was lost.'),
      new Error('Out of memory while creating a buffer'),
      'OOM',
    ]) {
      expect(isDeviceLost(error)).toBe(true);
    }
  });

  it('leaves other failures to their own messages', () => {
    for (const error of [new Error('Failed to fetch'), new Error('The model was not found in the list'), new Error('Lost connection to the server')]) {
      expect(isDeviceLost(error)).toBe(false);
    }
  });
});
