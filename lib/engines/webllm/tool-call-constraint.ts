import type { ResponseFormat } from '@mlc-ai/web-llm';
import type { CompactTool } from '@webmcp-agents/local-agent';
import { errorMessage } from '../../messaging/error-message';

/**
 * A `structural_tag` response format for Hermes-format models: prose stays free, but once the
 * model writes `<tool_call>` the body must name one of the shown tools and its arguments must
 * match that tool's schema. The tag text matches what `hermesFormat` tells the model to write.
 */
export function toolCallConstraint(tools: readonly CompactTool[]): ResponseFormat {
  const structuralTag = {
    type: 'structural_tag',
    format: {
      type: 'triggered_tags',
      triggers: ['<tool_call>'],
      tags: tools.map((tool) => ({
        type: 'tag',
        begin: `<tool_call>\n{"name": ${JSON.stringify(tool.name)}, "arguments": `,
        content: { type: 'json_schema', json_schema: argumentsSchema(tool) },
        end: '}\n</tool_call>',
      })),
      // A reply without any call is a legitimate answer to the person.
      at_least_one: false,
      stop_after_first: false,
    },
  };
  return { type: 'structural_tag', structural_tag: structuralTag } as ResponseFormat;
}

/** The grammar needs an object schema; a tool without one takes any object. */
function argumentsSchema(tool: CompactTool): Record<string, unknown> {
  const schema = tool.parameters;
  return schema && typeof schema === 'object' && schema.type === 'object' ? schema : { type: 'object' };
}

/** Whether an error came from compiling the constraint, so the reply can be retried without it. */
export function isConstraintError(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const message = errorMessage(error);
  return /Grammar|ResponseFormat|StructuralTag/i.test(name) || /grammar|structural.?tag|json.?schema/i.test(message);
}
