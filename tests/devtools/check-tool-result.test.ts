import { describe, expect, it } from 'vitest';
import { checkToolResult } from '@/lib/devtools/check-tool-result';
import { toolOutputFromResult } from '@/lib/registry/tool-output-from-result';

const outputSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, sky: { enum: ['sunny', 'cloudy'] }, days: { type: 'integer', minimum: 1 } },
  required: ['city', 'celsius'],
};
const tool = { name: 'get_weather', outputSchema };
const check = (text: string, structuredContent?: unknown) => checkToolResult(tool, { text }, structuredContent);

describe('checkToolResult: a run’s result against the tool’s output schema', () => {
  it('says quietly that a result matches, read from the result’s JSON', () => {
    expect(check('{"city":"Oslo","celsius":21,"sky":"sunny"}')).toEqual({ matches: true, message: "The result matches the tool's output schema." });
  });

  it('names the first problems, in words about a result, not arguments', () => {
    expect(check('{"celsius":"21"}')).toEqual({
      matches: false,
      message: 'The result does not match the tool\'s output schema: "city" is missing; "celsius" must be number, got "21".',
    });
    expect(check('{"city":"Oslo","celsius":21,"sky":"rainy","days":0}')).toEqual({
      matches: false,
      message: 'The result does not match the tool\'s output schema: "sky" must be one of "sunny", "cloudy"; "days" must be at least 1, got 0.',
    });
    expect(check('{"sky":"rainy","days":0}')?.message).toBe(
      'The result does not match the tool\'s output schema: "city" is missing; "celsius" is missing; "sky" must be one of "sunny", "cloudy".',
    );
    expect(check('["Oslo", 21]')?.message).toBe('The result does not match the tool\'s output schema: it is ["Oslo",21], not a JSON object.');
  });

  it('looks into every level, naming where each problem is', () => {
    const forecast = {
      type: 'object',
      properties: {
        city: { type: 'object', properties: { name: { type: 'string', minLength: 1 }, country: { type: 'string', pattern: '^[A-Z]{2}$' } }, required: ['name'] },
        days: {
          type: 'array',
          maxItems: 7,
          items: { type: 'object', properties: { date: { type: 'string' }, celsius: { type: 'number' }, sky: { enum: ['sunny', 'cloudy'] } }, required: ['date', 'celsius'], additionalProperties: false },
        },
      },
      required: ['city', 'days'],
    };
    const checkForecast = (value: unknown) => checkToolResult({ name: 'forecast', outputSchema: forecast }, { text: JSON.stringify(value) });
    const good = { city: { name: 'Oslo', country: 'NO' }, days: [{ date: '2026-12-01', celsius: -2, sky: 'cloudy' }] };
    expect(checkForecast(good)?.matches).toBe(true);
    expect(checkForecast({ city: { country: 'Norway' }, days: [{ date: '2026-12-01', celsius: '-2' }, { date: '2026-12-02', celsius: 1, wind: 4 }] })?.message).toBe(
      'The result does not match the tool\'s output schema: "city.name" is missing; "city.country" must match "^[A-Z]{2}$", got "Norway"; "days[0].celsius" must be number, got "-2".',
    );
    expect(checkForecast({ ...good, days: [{ date: '2026-12-01', celsius: 1, wind: 4 }] })?.message).toBe(
      'The result does not match the tool\'s output schema: "days[0]" has "wind", which its schema does not allow.',
    );
    expect(checkForecast({ ...good, days: Array.from({ length: 8 }, () => good.days[0]) })?.message).toBe(
      'The result does not match the tool\'s output schema: "days" must have at most 7 items, got 8.',
    );
    expect(checkForecast({ city: { name: '' }, days: 'none' })?.message).toBe(
      'The result does not match the tool\'s output schema: "city.name" must be at least 1 character long, got 0; "days" must be array, got "none".',
    );
  });

  it('names a key that is not a plain word in brackets, and says when a value fits none of a union’s shapes', () => {
    const schema = {
      type: 'object',
      properties: { 'unit price': { type: 'number', exclusiveMinimum: 0 }, stock: { anyOf: [{ type: 'integer', minimum: 0 }, { const: 'unknown' }] } },
    };
    const checkItem = (value: unknown) => checkToolResult({ name: 'item', outputSchema: schema }, { text: JSON.stringify(value) })?.message;
    expect(checkItem({ 'unit price': 0, stock: -1 })).toBe(
      'The result does not match the tool\'s output schema: "unit price" must be more than 0, got 0; "stock" matches none of the 2 shapes its schema allows.',
    );
    expect(checkItem({ 'unit price': 2, stock: 'unknown' })).toBe("The result matches the tool's output schema.");
    const nested = { type: 'object', properties: { prices: { type: 'object', additionalProperties: { type: 'number' } } } };
    expect(checkToolResult({ name: 'item', outputSchema: nested }, { text: '{"prices":{"unit price":"2 €"}}' })?.message).toBe(
      'The result does not match the tool\'s output schema: "prices[\'unit price\']" must be number, got "2 €".',
    );
  });

  it('takes an empty string as given: a result may hold one', () => {
    expect(check('{"city":"","celsius":21}')?.matches).toBe(true);
    expect(check('{"city":"","celsius":""}')?.message).toBe('The result does not match the tool\'s output schema: "celsius" must be number, got "".');
  });

  it('checks an MCP-style result’s structuredContent where it has one, and says so', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'Sunny, 21 °C in Oslo.' }], structuredContent: { city: 'Oslo', celsius: '21' } });
    const output = toolOutputFromResult('get_weather', result);
    expect(checkToolResult(tool, output, { city: 'Oslo', celsius: '21' })?.message).toBe(
      'The result\'s structuredContent does not match the tool\'s output schema: "celsius" must be number, got "21".',
    );
    expect(checkToolResult(tool, output, { city: 'Oslo', celsius: 21 })).toEqual({ matches: true, message: "The result's structuredContent matches the tool's output schema." });
    // Without structuredContent its text is read as JSON, and prose is none.
    expect(checkToolResult(tool, output)).toEqual({
      matches: false,
      message: "The result is not JSON and has no structuredContent, so it cannot match the tool's output schema.",
    });
  });

  it('does not judge a JSON result cut on its way from the page: it says it was too long to check', () => {
    const tool = { name: 'get_weather', outputSchema: { type: 'object', properties: { celsius: { type: 'number' } } } };
    expect(checkToolResult(tool, { text: '{"celsius": 21, "hours": [1, 2', fullLength: 2_000_000 })).toEqual({
      matches: false,
      message: "The result was too long to carry whole, so it was not checked against the tool's output schema.",
    });
  });

  it('reads the schema as the agent would: references written out, allOf merged', () => {
    const referred = { type: 'object', $ref: '#/$defs/weather', $defs: { weather: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } } };
    expect(checkToolResult({ name: 'get_weather', outputSchema: referred }, { text: '{}' })?.message).toBe('The result does not match the tool\'s output schema: "celsius" is missing.');
    const merged = { type: 'object', allOf: [{ properties: { celsius: { type: 'number' } } }, { required: ['celsius'] }] };
    expect(checkToolResult({ name: 'get_weather', outputSchema: merged }, { text: '{"celsius":"warm"}' })?.matches).toBe(false);
  });

  it('checks nothing without an output schema, with one that is not an object’s, for an error, or where no result came back', () => {
    expect(checkToolResult({ name: 'get_weather' }, { text: '{}' })).toBeUndefined();
    expect(checkToolResult({ name: 'get_weather', outputSchema: { type: 'array' } }, { text: '{}' })).toBeUndefined();
    expect(checkToolResult(tool, { text: 'The weather service is down.', isError: true })).toBeUndefined();
    expect(checkToolResult(tool, toolOutputFromResult('get_weather', null))).toBeUndefined();
  });
});
