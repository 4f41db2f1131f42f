import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import { runLocalAgent, type AgentEvent, type ParsedCall } from '@webmcp-agents/local-agent';
import type { Engine } from '../../../lib/engines/engine';

interface Product {
  slug: string;
  name: string;
  price: number;
}

/** A small shop with the three tools of the side-panel issue's shop task, kept in memory. */
export function createInMemoryShop() {
  const products: Product[] = [
    { slug: 'trail-cap', name: 'Trail cap', price: 18 },
    { slug: 'enamel-mug', name: 'Enamel camping mug', price: 12 },
    { slug: 'wool-socks', name: 'Merino wool socks', price: 15 },
  ];
  const cart: { slug: string; qty: number }[] = [];

  const tools: ToolDescriptor[] = [
    {
      name: 'search_products',
      description: 'Search the catalogue by key words; returns matching products with their slugs.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'open_product',
      description: 'Show one product page: name, price and stock.',
      inputSchema: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'add_to_cart',
      description: 'Add a quantity of a product to the shopping cart.',
      inputSchema: {
        type: 'object',
        properties: { slug: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
        required: ['slug', 'qty'],
      },
    },
  ];

  async function executeTool(call: ParsedCall): Promise<ToolOutput> {
    const args = call.arguments;
    switch (call.name) {
      case 'search_products': {
        const words = String(args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        const found = products.filter((product) => words.some((word) => product.name.toLowerCase().includes(word)));
        return { text: JSON.stringify(found) };
      }
      case 'open_product': {
        const product = products.find((candidate) => candidate.slug === args.slug);
        return product ? { text: JSON.stringify({ ...product, inStock: true }) } : { text: 'No such product.', isError: true };
      }
      case 'add_to_cart': {
        const slug = String(args.slug);
        if (!products.some((product) => product.slug === slug)) return { text: 'No such product.', isError: true };
        cart.push({ slug, qty: Number(args.qty) });
        return { text: JSON.stringify({ ok: true, cart }) };
      }
      default:
        return { text: `Unknown tool ${call.name}.`, isError: true };
    }
  }

  return { tools, cart, executeTool };
}

/** The model's side of the shop task, in the Qwen/Hermes format. */
export const shopReplies = [
  'I will look for the mug.\n<tool_call>\n{"name": "search_products", "arguments": {"query": "mug"}}\n</tool_call>',
  '<tool_call>\n{"name": "open_product", "arguments": {"slug": "enamel-mug"}}\n</tool_call>',
  'It is in stock.\n<tool_call>\n{"name": "add_to_cart", "arguments": {"slug": "enamel-mug", "qty": 2}}\n</tool_call>',
  'I added two Enamel camping mugs (12 each) to your cart.',
];

/** Runs one request with `engine`'s model against a new in-memory shop, keeping the run's events. */
export async function runShopRequest(engine: Pick<Engine, 'model' | 'format'>, request: string) {
  const shop = createInMemoryShop();
  const events: AgentEvent[] = [];
  const result = await runLocalAgent({
    request,
    model: engine.model,
    format: engine.format,
    getTools: () => shop.tools,
    executeTool: (call) => shop.executeTool(call),
    onEvent: (event) => events.push(event),
  });
  return { result, events, shop };
}
