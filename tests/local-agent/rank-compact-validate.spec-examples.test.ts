import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from "@webmcp-agents/chat";
import {
  compactSchema,
  rankTools,
  validateArgs,
} from "@webmcp-agents/local-agent";

// The example of spec/rank-compact-validate.md, word for word, with its console.log lines as
// assertions.
describe('rankTools, compactSchema, validateArgs: the documented example', () => {
  it('ranks, checks and compacts as the comments say', () => {
    const tools: ToolDescriptor[] = [
      {
        name: "add_to_cart",
        description: "Add a product to the cart. Only on a product page.",
        inputSchema: {
          type: "object",
          properties: { qty: { type: "integer", minimum: 1 } },
          required: ["qty"],
        },
      },
      {
        name: "search_products",
        description: "Search the catalogue by a key word.",
        inputSchema: { type: "object", properties: {} },
      },
    ];

    // At most `max` tools, the ones most like the request first.
    const shown = rankTools(tools, "add two mugs to the cart", {
      max: 1,
      recent: ["search_products"],
    });
    expect(shown[0]?.name).toBe("add_to_cart");
    expect(shown).toHaveLength(1);

    // A call's arguments, checked before it touches the page.
    const problem = validateArgs(shown[0]!.parameters, { qty: 0 });
    expect(problem).toBe('"qty" must be at least 1.');

    // Only what a small model needs of a schema.
    expect(compactSchema(tools[0]!.inputSchema)).toEqual({
      type: "object",
      properties: { qty: { type: "integer", minimum: 1 } },
      required: ["qty"],
    });
  });
});
