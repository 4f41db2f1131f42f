import { isAbortError, raceAbort } from './abortable';
import { finish, startRun, toRunError, type RunLocalAgentOptions, type RunLocalAgentResult } from './agent-run';
import { askModel, offerTools } from './ask-model';
import { readReply } from './read-reply';
import { runCalls } from './run-calls';

/**
 * The agent loop: rank the page's tools, prompt, stream the reply, parse its calls, check and run
 * them, and feed results or errors back, until the model answers without a call or a limit hits.
 */
export async function runLocalAgent(options: RunLocalAgentOptions): Promise<RunLocalAgentResult> {
  const run = startRun(options);
  try {
    while (run.step < run.maxSteps) {
      if (run.signal.aborted) return finish(run, 'aborted');
      run.step += 1;
      // Raced with the signal: a page's tools may take long to settle, and Stop ends the run at once.
      const tools = await raceAbort(Promise.resolve(options.getTools()), run.signal);
      // Stopped while the tools were read: the model is not asked.
      if (run.signal.aborted) return finish(run, 'aborted');
      const answer = await askModel(run, offerTools(run, tools));
      const step = readReply(run, tools, answer);
      // A reply without a call, nor one it got wrong, is the model's answer.
      if (step.parsed.calls.length === 0 && step.parsed.errors.length === 0) return finish(run, 'answer');
      const answered = await runCalls(run, step);
      if ('stop' in answered) return finish(run, answered.stop);
      run.prompt.addResults(run.step, answered.replies);
    }
    return finish(run, 'max-steps');
  } catch (error) {
    if (isAbortError(error) || run.signal.aborted) return finish(run, 'aborted');
    return finish(run, 'error', toRunError(error));
  }
}
