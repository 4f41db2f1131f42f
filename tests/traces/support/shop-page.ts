import type { ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';

export interface ShopPageOptions {
  /** The page as its author changed it: a tool under another name. */
  rename?: { from: string; to: string };
  /** Prices the page now gives differently. */
  prices?: Record<string, number>;
  /** add_to_cart asks for `quantity` instead of `qty`. */
  renameQuantity?: boolean;
  /** The tab's title, where the browser told it. */
  title?: string;
}

/**
 * A shop page held in memory, as the tool registry would report it: the tools change with the
 * page (add_to_cart appears once a product is open), like the demo shop's.
 */
export function createShopPage(options: ShopPageOptions = {}) {
  const prices: Record<string, number> = { 'enamel-mug': 12, 'trail-cap': 18, ...options.prices };
  const named = (name: string) => (options.rename?.from === name ? options.rename.to : name);
  const quantity = options.renameQuantity ? 'quantity' : 'qty';
  let openProduct: string | undefined;
  const cart: Array<{ slug: string; qty: number }> = [];

  const tools = (): ToolDescriptor[] => [
    {
      name: named('search_products'),
      description: 'Search the catalogue by key words; returns matching products with their slugs.',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: named('open_product'),
      description: 'Show one product page: name, price and stock.',
      inputSchema: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'] },
      annotations: { readOnlyHint: true },
    },
    ...(openProduct
      ? [
          {
            name: named('add_to_cart'),
            description: 'Add a quantity of the open product to the shopping cart.',
            inputSchema: { type: 'object', properties: { [quantity]: { type: 'integer', minimum: 1 } }, required: [quantity] },
          },
        ]
      : []),
  ];

  const run = (name: string, args: Record<string, unknown>): ToolOutput => {
    switch (name) {
      case named('search_products'):
        return { text: JSON.stringify({ products: Object.keys(prices).filter((slug) => slug.includes(String(args.query))) }) };
      case named('open_product'): {
        const slug = String(args.slug);
        if (!(slug in prices)) return { text: 'No such product.', isError: true };
        openProduct = slug;
        return { text: JSON.stringify({ slug, price: prices[slug], inStock: true }) };
      }
      case named('add_to_cart'):
        cart.push({ slug: openProduct!, qty: Number(args[quantity]) });
        return { text: JSON.stringify({ itemCount: cart.reduce((sum, line) => sum + line.qty, 0) }) };
      default:
        return { text: `The page has no tool called ${name}.`, isError: true };
    }
  };

  return {
    url: 'https://shop.example/',
    origin: 'https://shop.example',
    ...(options.title ? { title: options.title } : {}),
    tools,
    cart,
    executeTool: async (name: string, args: Record<string, unknown>) => run(name, args),
  };
}

export type ShopPage = ReturnType<typeof createShopPage>;

const call = (name: string, args: Record<string, unknown>) =>
  `<tool_call>\n{"name": "${name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;

/** The model's side of the shop task, in the Qwen/Hermes format. */
export const shopReplies = [
  `<think>The person wants mugs.</think>I will look for the mug.\n${call('search_products', { query: 'mug' })}`,
  call('open_product', { slug: 'enamel-mug' }),
  `It is in stock.\n${call('add_to_cart', { qty: 2 })}`,
  'I added two enamel mugs (12 each) to your cart.',
];
