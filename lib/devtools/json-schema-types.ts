/** The seven type names JSON Schema knows; a validator ignores any other, so a typo checks nothing. */
export const jsonSchemaTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

export function isJsonSchemaType(name: unknown): boolean {
  return typeof name === 'string' && (jsonSchemaTypes as readonly string[]).includes(name);
}
