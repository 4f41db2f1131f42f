import { describe, expect, it } from 'vitest';
import { isEngineFailure } from '../../lib/agent/is-engine-failure';
import { EngineError, replyCutOff } from '../../lib/engines/engine';

const asRunError = (error: Error & { hint?: string; code?: string }) => ({
  name: error.name,
  message: error.message,
  ...(error.hint ? { hint: error.hint } : {}),
  ...(error.code ? { code: error.code } : {}),
});

describe('isEngineFailure', () => {
  it('counts an engine that stopped working, not a reply that ran too long or a fault of the extension', () => {
    expect(isEngineFailure(asRunError(new EngineError('server-down', 'No server answers.', 'Start it.')))).toBe(true);
    expect(isEngineFailure(asRunError(replyCutOff('4,096 tokens')))).toBe(false);
    expect(isEngineFailure(asRunError(new TypeError('storage is not available')))).toBe(false);
  });
});
