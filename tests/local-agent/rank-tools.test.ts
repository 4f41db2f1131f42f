import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import {
  rankTools,
  rankToolsWithScores,
  wordOverlapScorer,
  type ToolScorer,
} from '@webmcp-agents/local-agent';

function tool(name: string, description = '', inputSchema: ToolDescriptor['inputSchema'] = {}): ToolDescriptor {
  return { name, description, inputSchema };
}

/** The score the documented scorer gives one tool for one query. */
function scoreOf(candidate: ToolDescriptor, query: string, recent: string[] = []): number {
  return wordOverlapScorer([candidate], query, recent)[0]!;
}

/** Nine tools, one more than the default `max`, so that ranking (not pass-through) happens. */
function fillers(count: number): ToolDescriptor[] {
  return Array.from({ length: count }, (_, index) => tool(`filler_${index}`, 'Nothing relevant.'));
}

describe('wordOverlapScorer: the documented scoring', () => {
  it('gives +3 per name word found in the query', () => {
    expect(scoreOf(tool('add_to_cart'), 'add it to my cart')).toBe(9);
    expect(scoreOf(tool('add_to_cart'), 'add it')).toBe(3);
  });

  it('splits names on _ . - and camelCase, and compares in lower case', () => {
    expect(scoreOf(tool('addToCart'), 'ADD TO CART')).toBe(9);
    expect(scoreOf(tool('shop.cart-add'), 'add to cart')).toBe(6);
    expect(scoreOf(tool('getHTMLPage'), 'get the html page')).toBe(9);
  });

  it('matches a name word on its first four letters against a query word of four letters or more', () => {
    expect(scoreOf(tool('search_products'), 'prod')).toBe(3);
    expect(scoreOf(tool('search_products'), 'productivity')).toBe(3);
    expect(scoreOf(tool('list_carts'), 'my cart')).toBe(3);
  });

  it('does not prefix-match a query word of three letters', () => {
    expect(scoreOf(tool('search_products'), 'pro')).toBe(0);
  });

  it('does not prefix-match a name word shorter than four letters', () => {
    expect(scoreOf(tool('add_item'), 'adding')).toBe(0);
    expect(scoreOf(tool('add_item'), 'items')).toBe(3);
  });

  it('counts a name word that is both in the query and prefix-matched once', () => {
    expect(scoreOf(tool('cart'), 'cart')).toBe(3);
    expect(scoreOf(tool('cart_cart'), 'cart carts')).toBe(3);
  });

  it('gives +1 per distinct description word found in the query, however often it repeats', () => {
    expect(scoreOf(tool('x', 'Shows the weather.'), 'the weather in Paris')).toBe(2);
    expect(scoreOf(tool('x', 'cart cart cart'), 'cart')).toBe(1);
    expect(scoreOf(tool('x', 'Weather'), 'weathers')).toBe(0);
  });

  it('reads words in any script', () => {
    expect(scoreOf(tool('x', 'Réserver un café à Zürich'), 'café zürich')).toBe(2);
    expect(scoreOf(tool('x', '搜索 关键词'), '搜索')).toBe(1);
  });

  it('gives +2 to a recent tool', () => {
    expect(scoreOf(tool('checkout'), 'nothing shared', ['checkout'])).toBe(2);
    expect(scoreOf(tool('checkout'), 'checkout', ['checkout'])).toBe(5);
    expect(scoreOf(tool('checkout'), 'nothing shared', ['check'])).toBe(0);
  });

  it('scores a tool edited in place afresh', () => {
    const editable = tool('x', 'weather');
    expect(scoreOf(editable, 'weather')).toBe(1);
    editable.description = 'news';
    expect(scoreOf(editable, 'weather')).toBe(0);
  });
});

describe('rankTools', () => {
  it('puts the best match first and returns at most max tools', () => {
    const tools = [...fillers(5), tool('get_weather', 'Current weather for a city.'), ...fillers(5)];
    const shown = rankTools(tools, "what's the weather in Oslo", { max: 3 });
    expect(shown).toHaveLength(3);
    expect(shown[0]?.name).toBe('get_weather');
  });

  it('returns 8 tools by default', () => {
    expect(rankTools(fillers(12), 'anything')).toHaveLength(8);
  });

  it('keeps the original order among ties', () => {
    const tools = [tool('b_news'), tool('a_news'), tool('c_news'), tool('weather')];
    const shown = rankTools(tools, 'news', { max: 3 });
    expect(shown.map((t) => t.name)).toEqual(['b_news', 'a_news', 'c_news']);
  });

  it('returns every tool in its original order when max is larger than the list', () => {
    const tools = [tool('news'), tool('weather'), tool('cart')];
    expect(rankTools(tools, 'weather cart', { max: 10 }).map((t) => t.name)).toEqual([
      'news',
      'weather',
      'cart',
    ]);
  });

  it('returns every tool in its original order when max equals the list length', () => {
    const tools = [tool('news'), tool('weather'), tool('cart')];
    expect(rankTools(tools, 'cart', { max: 3 }).map((t) => t.name)).toEqual(['news', 'weather', 'cart']);
    expect(rankTools(tools, 'cart', { max: 2 }).map((t) => t.name)).toEqual(['cart', 'news']);
  });

  it('lets a recent tool win a tie', () => {
    const tools = [tool('open_news'), tool('open_mail')];
    const shown = rankTools(tools, 'open', { max: 1, recent: ['open_mail'] });
    expect(shown.map((t) => t.name)).toEqual(['open_mail']);
  });

  it('cuts descriptions to 400 characters', () => {
    const long = `${'a'.repeat(399)}bc`;
    const [shown] = rankTools([tool('x', long)], 'x');
    expect(long).toHaveLength(401);
    expect(shown?.description).toBe(long.slice(0, 400));
    const exact = 'b'.repeat(400);
    expect(rankTools([tool('x', exact)], 'x')[0]?.description).toBe(exact);
  });

  it('compacts the schema into parameters', () => {
    const inputSchema = {
      type: 'object',
      $schema: 'http://json-schema.org/draft-07/schema#',
      additionalProperties: false,
      properties: { city: { type: 'string', description: 'City name', default: 'Oslo' } },
      required: ['city'],
    };
    const [shown] = rankTools([tool('get_weather', 'Weather.', inputSchema)], 'weather');
    expect(shown).toEqual({
      name: 'get_weather',
      description: 'Weather.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' } },
        required: ['city'],
      },
    });
  });

  it('gives a caller its own tool objects, which it may change without changing the next ranking', () => {
    const tools = [tool('news', 'Headlines.')];
    const first = rankTools(tools, 'news');
    first[0]!.description = 'changed';
    expect(rankTools(tools, 'news')[0]?.description).toBe('Headlines.');
  });

  it('uses options.scorer instead of the documented scoring', () => {
    const calls: Array<{ query: string; recent: readonly string[] }> = [];
    const reverse: ToolScorer = (tools, query, recent) => {
      calls.push({ query, recent });
      return tools.map((_, index) => index);
    };
    const tools = [tool('a'), tool('b'), tool('c')];
    const shown = rankTools(tools, 'q', { max: 2, recent: ['a'], scorer: reverse });
    expect(shown.map((t) => t.name)).toEqual(['c', 'b']);
    expect(calls).toEqual([{ query: 'q', recent: ['a'] }]);
  });

  it('ranks missing or NaN scores from a custom scorer as 0', () => {
    const tools = [tool('a'), tool('b'), tool('c')];
    const sloppy: ToolScorer = () => [Number.NaN, -1];
    expect(rankTools(tools, 'q', { max: 2, scorer: sloppy }).map((t) => t.name)).toEqual(['a', 'c']);
  });

  it('reads max as a count: fractions round down, negatives give none, NaN the default', () => {
    const tools = fillers(10);
    expect(rankTools(tools, 'q', { max: 2.7 })).toHaveLength(2);
    expect(rankTools(tools, 'q', { max: -1 })).toHaveLength(0);
    expect(rankTools(tools, 'q', { max: 0 })).toHaveLength(0);
    expect(rankTools(tools, 'q', { max: Number.NaN })).toHaveLength(8);
    expect(rankTools(tools, 'q', { max: Number.POSITIVE_INFINITY })).toHaveLength(10);
  });

  it('returns nothing for no tools', () => {
    expect(rankTools([], 'anything')).toEqual([]);
  });

  it('survives a tool whose fields slipped past validation', () => {
    const broken = { name: 'broken', description: 42, inputSchema: 'nope' } as unknown as ToolDescriptor;
    const [shown] = rankTools([broken], 'broken');
    expect(shown).toEqual({ name: 'broken', description: '', parameters: {} });
  });
});

describe('rankToolsWithScores', () => {
  it('returns the same ranking with each tool’s score', () => {
    const tools = [
      tool('search_products', 'Search the catalogue by a key word.'),
      tool('add_to_cart', 'Add a product to the cart.'),
      ...fillers(7),
    ];
    const ranked = rankToolsWithScores(tools, 'add two mugs to the cart', { recent: ['search_products'] });
    expect(ranked.map((entry) => entry.tool)).toEqual(rankTools(tools, 'add two mugs to the cart', {
      recent: ['search_products'],
    }));
    expect(ranked[0]).toMatchObject({ tool: { name: 'add_to_cart' }, score: 9 + 4 });
    expect(ranked[1]).toMatchObject({ tool: { name: 'search_products' }, score: 2 + 1 });
  });

  it('reports scores in original order when every tool fits', () => {
    const ranked = rankToolsWithScores([tool('news'), tool('weather')], 'weather');
    expect(ranked.map((entry) => [entry.tool.name, entry.score])).toEqual([
      ['news', 0],
      ['weather', 3],
    ]);
  });
});
