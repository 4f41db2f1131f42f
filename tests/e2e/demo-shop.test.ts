import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/serve-demo';
import { chromiumAvailable, chromiumPath, quietBrowserFlags } from './support';

if (!chromiumAvailable) console.warn(`Chromium was not found at ${chromiumPath}: the demo shop's browser tests are skipped.`);

interface ToolAnnotations { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean }
interface ListedTool { name: string; description: string; inputSchema: unknown; annotations: ToolAnnotations }
/** The part of `document.modelContext` a page script uses; lib.dom does not know it yet. */
interface PageModelContext {
  getTools(): Promise<ListedTool[]>;
  executeTool(tool: ListedTool, input: unknown): Promise<string | null>;
}

const expectedAnnotations: Record<string, Required<ToolAnnotations>> = {
  checkout: { readOnlyHint: false, untrustedContentHint: false, consequentialHint: true },
  open_product: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false },
  read_reviews: { readOnlyHint: true, untrustedContentHint: true, consequentialHint: false },
  remove_from_cart: { readOnlyHint: false, untrustedContentHint: false, consequentialHint: false },
  search_products: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false },
  view_cart: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false },
};

/** The page's tools as a page script lists them, once the shop has registered them. */
async function listTools(page: Page): Promise<ListedTool[]> {
  return page.evaluate(async () => {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const modelContext = (document as unknown as { modelContext?: PageModelContext }).modelContext;
      const tools = (await modelContext?.getTools()) ?? [];
      if (tools.some((tool) => tool.name === 'search_products')) {
        // Copied field by field: newer Chrome returns interface objects that do not serialise.
        return tools.map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations }));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The shop registered no tools within 5 s.');
  });
}

async function toolNames(page: Page): Promise<string[]> {
  return (await listTools(page)).map((tool) => tool.name);
}

/**
 * Runs a tool as an agent would and parses its JSON result. The browser's executeTool takes the input
 * object; polyfill 5.1 still takes the older JSON string.
 */
async function runTool(page: Page, name: string, input: object, inputAsJson: boolean): Promise<unknown> {
  const result = await page.evaluate(async ({ name, input, inputAsJson }) => {
    const modelContext = (document as unknown as { modelContext: PageModelContext }).modelContext;
    const tool = (await modelContext.getTools()).find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`The page has no tool called ${name}.`);
    return modelContext.executeTool(tool, inputAsJson ? JSON.stringify(input) : input);
  }, { name, input, inputAsJson });
  return JSON.parse(result ?? 'null');
}

const modes = [
  { label: "the browser's own WebMCP", flags: ['--enable-features=WebMCP'], source: 'browser', inputAsJson: false },
  { label: 'the polyfill (no WebMCP in the browser)', flags: [], source: 'polyfill', inputAsJson: true },
] as const;

describe.skipIf(!chromiumAvailable).each(modes)('the demo shop with $label', ({ flags, source, inputAsJson }) => {
  let server: DemoServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startDemoServer();
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...quietBrowserFlags, ...flags] });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Chromium logs every refused tool call ("WebMCP tool execution failed: …"); those are expected here.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('WebMCP tool execution failed')) pageErrors.push(message.text());
    });
    await page.goto(server.url('/'));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('offers its tools, with the right annotations, from the expected WebMCP source', async () => {
    const tools = await listTools(page);
    expect(tools.map((tool) => tool.name)).toEqual(Object.keys(expectedAnnotations));
    for (const tool of tools) {
      const expected = expectedAnnotations[tool.name]!;
      expect(tool.annotations.readOnlyHint, tool.name).toBe(expected.readOnlyHint);
      expect(tool.annotations.untrustedContentHint, tool.name).toBe(expected.untrustedContentHint);
      // Polyfill 5.1 lists only the two hints above; the browser reports consequentialHint too.
      if (source === 'browser') expect(tool.annotations.consequentialHint, tool.name).toBe(expected.consequentialHint);
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
    }
    await expect(page.getByTestId('webmcp-status').getAttribute('data-source')).resolves.toBe(source);
  });

  it('puts two mugs in the cart through search_products, open_product and add_to_cart', async () => {
    const search = (await runTool(page, 'search_products', { query: 'mug' }, inputAsJson)) as { products: { slug: string; name: string }[] };
    const mug = search.products[0]!;
    expect(mug.name).toMatch(/Mug/);
    await expect(page.locator('h1').textContent()).resolves.toBe('Results for “mug”');

    const details = (await runTool(page, 'open_product', { slug: mug.slug }, inputAsJson)) as { name: string };
    expect(details.name).toBe(mug.name);
    await expect(page.getByTestId('product-name').textContent()).resolves.toBe(mug.name);
    expect(await toolNames(page)).toContain('add_to_cart');

    const cart = (await runTool(page, 'add_to_cart', { qty: 2 }, inputAsJson)) as { itemCount: number };
    expect(cart.itemCount).toBe(2);
    await expect(page.getByTestId('cart-count').textContent()).resolves.toBe('2');
  });

  it('shows the two mugs in the cart view, where add_to_cart is gone', async () => {
    await page.getByTestId('cart-link').click();
    await page.waitForURL(/#\/cart$/);
    const lines = page.getByTestId('cart-line');
    // The cart view renders a moment after the address changes.
    await lines.first().waitFor();
    await expect(lines.count()).resolves.toBe(1);
    await expect(lines.first().getByTestId('cart-line-quantity').textContent()).resolves.toBe('2');
    await expect(lines.first().textContent()).resolves.toMatch(/Mug/);
    expect(await toolNames(page)).not.toContain('add_to_cart');
  });

  it('keeps what the person types at checkout while the cart changes under it, as an agent\'s call changes it', async () => {
    await page.evaluate(() => (location.hash = '#/checkout'));
    const email = page.locator('#email');
    await email.fill('ada@exa');
    // The same module the page uses: its listeners hear the change as they hear a tool's. (A
    // string, so that the test runner leaves the page's import() as it is.)
    await page.evaluate("import('/cart.js').then((cart) => cart.addToCart('trail-mug-clay', 1))");
    await expect.poll(() => page.locator('.checkout-form').evaluate((form) => form.parentElement?.textContent ?? '')).toContain('3 items');
    expect(await email.inputValue()).toBe('ada@exa');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.evaluate("import('/cart.js').then((cart) => cart.removeFromCart('trail-mug-clay'))");
    await expect.poll(() => page.locator('.checkout-form').evaluate((form) => form.parentElement?.textContent ?? '')).toContain('2 items');
    expect(await email.inputValue()).toBe('ada@exa');
    // The header's search box names the search shown, and nothing on other pages.
    await page.evaluate(() => (location.hash = '#/search?q=cap'));
    await expect.poll(() => page.locator('#header-search-input').inputValue()).toBe('cap');
    await page.evaluate(() => (location.hash = '#/cart'));
    await expect.poll(() => page.locator('#header-search-input').inputValue()).toBe('');
  });

  it('keeps the cart across a reload and refuses what the shop cannot do', async () => {
    await page.reload();
    await expect(page.getByTestId('cart-count').textContent()).resolves.toBe('2');
    await runTool(page, 'open_product', { slug: 'trail-mug-slate' }, inputAsJson);
    // Refusals come back as error results with the shop's own words, which a thrown error would
    // lose in the browser's WebMCP.
    const refusal = (text: RegExp) => ({ isError: true, content: [{ type: 'text', text: expect.stringMatching(text) }] });
    await expect(runTool(page, 'add_to_cart', { qty: 4 }, inputAsJson)).resolves.toMatchObject(refusal(/Only 3 of Trail Mug, Slate Blue are in stock/));
    await expect(runTool(page, 'add_to_cart', { qty: 11 }, inputAsJson)).resolves.toMatchObject(refusal(/"qty" must be a whole number from 1 to 10/));
    await expect(runTool(page, 'open_product', { slug: 'no-such-product' }, inputAsJson)).resolves.toMatchObject(refusal(/no-such-product/));
    const cart = (await runTool(page, 'view_cart', {}, inputAsJson)) as { itemCount: number; items: { quantity: number }[] };
    expect(cart).toMatchObject({ itemCount: 2, items: [{ quantity: 2 }] });
    await expect(page.getByTestId('cart-count').textContent()).resolves.toBe('2');
  });

  it('checks out the cart and shows the order number; an empty cart cannot be checked out', async () => {
    const result = (await runTool(page, 'checkout', { email: 'ada@example.com' }, inputAsJson)) as {
      content: { type: string; text: string }[];
    };
    const orderNumber = /TM-\d{6}/.exec(result.content[0]!.text)?.[0];
    expect(orderNumber).toBeDefined();
    await expect(page.getByTestId('order-number').textContent()).resolves.toBe(orderNumber);
    await expect(page.getByTestId('cart-count').textContent()).resolves.toBe('0');
    await expect(runTool(page, 'checkout', { email: 'ada@example.com' }, inputAsJson)).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The cart is empty: add a product before checking out.' }],
    });
    expect(pageErrors).toEqual([]);
  });
});
