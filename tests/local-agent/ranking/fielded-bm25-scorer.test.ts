import type { ToolDescriptor } from '@webmcp-agents/chat';
import { describe, expect, it } from 'vitest';
import {
  createFieldedBm25Scorer,
  searchScorer,
} from '../../../lib/local-agent/ranking/fielded-bm25-scorer';
import { rankTools } from '../../../lib/local-agent/rank-tools';

const schema = { type: 'object', properties: {} };
const tool = (name: string, description: string, inputSchema: object = schema): ToolDescriptor => ({
  name,
  description,
  inputSchema: inputSchema as ToolDescriptor['inputSchema'],
});

const shop: ToolDescriptor[] = [
  tool('add_to_cart', 'Add a product to the cart. Only on a product page.', {
    type: 'object',
    properties: { qty: { type: 'integer', minimum: 1 } },
    required: ['qty'],
  }),
  tool('search_products', 'Search the catalogue by a key word.'),
  tool('getOrderHistory', 'List the orders the signed-in customer placed.'),
  tool('write_file', 'Write text to a file on disk.', {
    type: 'object',
    properties: { path: { type: 'string', description: 'Where the file goes.' } },
  }),
  tool('bing_search', '使用必应搜索指定的关键词，并返回搜索结果列表'),
  tool('get_weather', 'Current conditions and forecast for a city.'),
];

/** The names of the tools, best first, as `rankTools` shows them with this scorer. */
const ranked = (query: string, recent: string[] = [], tools = shop, max = 3) =>
  rankTools(tools, query, { scorer: searchScorer, recent, max }).map((shown) => shown.name);

describe('searchScorer', () => {
  it('ranks the spec example as the documented scorer does', () => {
    expect(ranked('add two mugs to the cart', ['search_products'], shop, 1)).toEqual(['add_to_cart']);
  });

  it('matches words inside camelCase and snake_case names', () => {
    expect(ranked('show my order history')[0]).toBe('getOrderHistory');
  });

  it('matches other forms of a word through stemming', () => {
    const tools = [tool('reserve_table', 'Reserve a table for dinner.'), tool('cancel', 'Cancels bookings.')];
    expect(ranked('change my booking', [], tools, 1)).toEqual(['cancel']);
    const literal = createFieldedBm25Scorer({ tokenize: { stem: false }, prefixLength: 0, relatedWeight: 0 });
    expect(literal(tools, 'change my booking', [])).toEqual([0, 0]);
  });

  it('reads the title and the parameter names and descriptions too', () => {
    const tools: ToolDescriptor[] = [
      tool('t1', 'Does a thing.'),
      { ...tool('t2', 'Does a thing.'), title: 'Track a parcel' },
      tool('t3', 'Does a thing.', {
        type: 'object',
        properties: { voucherCode: { type: 'string', description: 'A discount voucher.' } },
      }),
    ];
    expect(ranked('where is my parcel', [], tools, 1)).toEqual(['t2']);
    expect(ranked('apply this voucher code', [], tools, 1)).toEqual(['t3']);
  });

  it('matches related words: saving a report finds the file writer', () => {
    expect(ranked('save the report to /home/notes/report.md')[0]).toBe('write_file');
  });

  it('ranks a tool described in Chinese for a query in Chinese', () => {
    expect(ranked('帮我搜索关键词')[0]).toBe('bing_search');
  });

  it('does not match a Chinese request to a tool by the particle before a word they share', () => {
    // "Where is my order?": cancelling an order "not yet shipped的订单" shared 的订 with 我的订单.
    const orders = [tool('void_order', '取消一个尚未发货的订单'), tool('track_order', '查询订单的物流状态')];
    expect(ranked('我的订单到哪了', [], orders, 1)).toEqual(['track_order']);
  });

  it('ranks the tool a request in Arabic, Hebrew or Russian names, though the request writes the word with an article, a prefix or a preposition', () => {
    const stores = (description: string) => tool('list_stores', description);
    const cases: Array<[ToolDescriptor[], string]> = [
      [[tool('apply_coupon', 'تطبيق رمز قسيمة خصم على السلة.'), tool('checkout', 'الدفع مقابل المنتجات في السلة وتأكيد الطلب.'), stores('عرض قائمة المتاجر القريبة من مدينة.')], 'استخدم القسيمة SAVE10'],
      [[stores('רשימת החנויות הקרובות לעיר.'), tool('add_to_cart', 'הוספת מוצר לעגלת הקניות.'), tool('track_order', 'מעקב אחר סטטוס המשלוח של הזמנה.')], 'חנויות בתל אביב'],
      [[tool('add_to_cart', 'Добавить товар в корзину.'), tool('contact_support', 'Отправить сообщение в службу поддержки.'), stores('Показать список магазинов рядом с городом.')], 'Магазины в Москве'],
    ];
    for (const [tools, request] of cases) expect(ranked(request, [], tools, 1)).toEqual([tools[0]!.name === 'apply_coupon' ? 'apply_coupon' : 'list_stores']);
  });

  it('ranks the tool an Arabic request names when it is typed the informal way (no hamza, ه for ة)', () => {
    const tools = [tool('search_products', 'ابحث عن منتجات في المتجر.'), tool('add_to_cart', 'أضف منتجًا إلى سلة التسوق.'), tool('track_order', 'تتبع حالة الطلب.')];
    expect(ranked('اضف كوبين الى السله', [], tools, 1)).toEqual(['add_to_cart']);
  });

  it('ranks the tool an Arabic request names with an ending on the word ("my order"), or a cancelling typed without its hamza', () => {
    const tools = [tool('search_products', 'ابحث عن منتجات في المتجر.'), tool('track_order', 'تتبع حالة الطلب وموعد وصوله.'), tool('cancel_order', 'إلغاء طلب لم يُشحن بعد.'), tool('contact_support', 'أرسل رسالة إلى خدمة العملاء.')];
    expect(ranked('وين طلبي؟', [], tools, 1)).toEqual(['track_order']);
    expect(ranked('الغاء', [], tools, 1)).toEqual(['cancel_order']);
  });

  it('lifts a recent tool without burying the one the request names', () => {
    const scores = searchScorer(shop, 'add it to the cart', ['get_weather']);
    const plain = searchScorer(shop, 'add it to the cart', []);
    expect(scores[5]).toBeGreaterThan(plain[5]!);
    expect(ranked('add it to the cart', ['get_weather'])[0]).toBe('add_to_cart');
    expect(ranked('and the other one?', ['get_weather'])[0]).toBe('get_weather');
  });

  it('gives the same scores from a fresh index and from its cache', () => {
    const scorer = createFieldedBm25Scorer();
    const first = scorer(shop, 'search the catalogue for mugs', []);
    const again = scorer(shop, 'search the catalogue for mugs', []);
    const copy = scorer([...shop], 'search the catalogue for mugs', []);
    const copiedTools = scorer(shop.map((each) => ({ ...each })), 'search the catalogue for mugs', []);
    const copies = shop.map((each) => ({ ...each }));
    const fresh = createFieldedBm25Scorer()(copies, 'search the catalogue for mugs', []);
    expect(again).toEqual(first);
    expect(copy).toEqual(first);
    expect(copiedTools).toEqual(first);
    expect(fresh).toEqual(first);
  });

  it('notices a tool list or a tool changed in place', () => {
    const scorer = createFieldedBm25Scorer();
    const tools = shop.map((each) => ({ ...each }));
    expect(scorer(tools, 'weather forecast', [])[5]).toBeGreaterThan(0);
    tools[5] = tool('get_time', 'The current time in a time zone.');
    expect(scorer(tools, 'weather forecast', [])[5]).toBe(0);
    tools[1]!.description = 'Weather forecast for the coming week.';
    expect(scorer(tools, 'weather forecast', [])[1]).toBeGreaterThan(0);
  });

  it('scores every tool 0 for an empty or stop-word query, and nothing for no tools', () => {
    expect(searchScorer(shop, '', [])).toEqual(shop.map(() => 0));
    expect(searchScorer(shop, 'could you please do it', [])).toEqual(shop.map(() => 0));
    expect(searchScorer([], 'add to cart', ['add_to_cart'])).toEqual([]);
  });

  it('never throws on empty descriptions, junk schemas or junk tools', () => {
    const junk = [
      tool('empty', ''),
      { name: 'no_schema', description: 'Book a table.' } as unknown as ToolDescriptor,
      tool('bad_properties', 'Book a room.', { properties: 'nope' }),
      tool('odd_property', 'Book a car.', { properties: { when: null, where: 7, who: { description: 5 } } }),
      { name: 42, description: ['x'], inputSchema: null } as unknown as ToolDescriptor,
      null as unknown as ToolDescriptor,
      tool('deep', 'Book a flight.', deepSchema(500)),
    ];
    const scores = searchScorer(junk, 'book a room', ['bad_properties', 'missing']);
    expect(scores).toHaveLength(junk.length);
    expect(scores.every(Number.isFinite)).toBe(true);
    expect(ranked('book a room', [], junk, 1)).toEqual(['bad_properties']);
    const noQuery = undefined as unknown as string;
    expect(() => searchScorer(junk, noQuery, undefined as unknown as string[])).not.toThrow();
  });
});

function deepSchema(depth: number): object {
  let schema: object = { type: 'string' };
  for (let level = 0; level < depth; level += 1) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}
