/**
 * The tool with its failures answered as an MCP error result (`isError: true`) rather than thrown:
 * Chrome passes on only that a tool threw, not its message, so a caller could not tell a wrong
 * input ("qty" must be from 1 to 10) from a broken page, nor what to do next.
 */
export function answeringErrors(tool) {
  return {
    ...tool,
    async execute(input, client) {
      try {
        return await tool.execute(input, client);
      } catch (error) {
        return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
      }
    },
  };
}
