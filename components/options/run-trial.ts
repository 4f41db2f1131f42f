import type { ModelUsage } from '@webmcp-agents/local-agent';
import type { Engine, EngineLoadProgress } from '@/lib/engines/engine';
import { describeFailure, type Failure } from './describe-failure';

/** One short exchange with an engine, as the options page shows it while it runs and after. */
export interface Trial {
  running: boolean;
  progress?: EngineLoadProgress;
  reply: string;
  usage?: ModelUsage;
  failure?: Failure;
}

const trialRequest = 'Say hello to the person in one short sentence.';

/** Loads the engine and streams one reply to a fixed request, with the engine's own format. */
export async function runTrial(engine: Engine, onChange: (trial: Trial) => void): Promise<void> {
  let trial: Trial = { running: true, reply: '' };
  const change = (next: Partial<Trial>) => onChange((trial = { ...trial, ...next }));
  change({});
  try {
    await engine.load((progress) => change({ progress }));
    const system = engine.format.systemPrompt([], 'You are a helpful assistant in a browser extension.');
    const request = {
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: trialRequest },
      ],
      tools: [],
      signal: AbortSignal.timeout(60_000),
    };
    for await (const chunk of engine.model.stream(request)) {
      if (chunk.type === 'usage') change({ usage: chunk.usage });
      else change({ reply: trial.reply + chunk.text });
    }
    change({ running: false });
  } catch (error) {
    change({ running: false, failure: describeFailure(error) });
  }
}
