import { hermesFormat } from './hermes-format';
import { lfm2Format } from './lfm2-format';
import { llama3JsonFormat } from './llama3-json-format';
import { promptApiFormat } from './prompt-api-format';
import type { PromptFormat, PromptFormatId } from './prompt-format';

export { hermesFormat, lfm2Format, llama3JsonFormat, promptApiFormat };
export { promptApiEnvelopeSchema } from './prompt-api-format';
export type { PromptFormat, PromptFormatId, ToolReply } from './prompt-format';

export const promptFormats: Readonly<Record<PromptFormatId, PromptFormat>> = {
  hermes: hermesFormat,
  lfm2: lfm2Format,
  'llama3-json': llama3JsonFormat,
  'prompt-api': promptApiFormat,
};
