/** How a run ended: the words the side panel shows a turn with and its trace keeps; absent while it runs. */
export const traceOutcomes = [
  'answer',
  'stopped',
  'interrupted',
  'max-steps',
  'repeated-call',
  'tool-timeout',
  // Nobody answered whether to run a call in time: no tool ran.
  'no-answer',
  'navigated',
  'error',
] as const;
