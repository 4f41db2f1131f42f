/**
 * How much of a tool's result the model read where the prompt could carry only part of it, as the
 * side panel's card and the trace viewer both say it: "the model read the first 4,000 of 56,000
 * characters", or none of them.
 */
export function resultReadText({ characters, of }: { characters: number; of: number }): string {
  const whole = of.toLocaleString('en-US');
  return characters === 0 ? `the model read none of its ${whole} characters` : `the model read the first ${characters.toLocaleString('en-US')} of ${whole} characters`;
}
