import { products } from './catalogue.js';

// Words that carry no meaning for a product search ("add two mugs to my cart").
const ignoredWords = new Set([
  'a', 'an', 'the', 'and', 'or', 'for', 'with', 'of', 'to', 'in', 'my', 'me', 'some', 'any', 'please',
  'one', 'two', 'three', 'four', 'five', 'add', 'cart', 'buy', 'find', 'show', 'search',
]);

/** Lower-case words with a plural "s" dropped, so "Mugs" finds "mug". */
export function searchWords(text) {
  return String(text)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/**
 * Products that match any word of the query, best first (most matching words, then catalogue order).
 * A query word matches a product word it begins, so "stone" finds "stoneware".
 */
export function searchProducts(query) {
  const wanted = searchWords(query).filter((word) => !ignoredWords.has(word) && !/^\d+$/.test(word));
  if (wanted.length === 0) return [];
  const scored = products.map((item, index) => {
    const text = [item.name, item.category, item.colour, item.description, ...item.tags].join(' ');
    const words = searchWords(text);
    const score = wanted.filter((word) => words.some((candidate) => candidate.startsWith(word))).length;
    return { item, index, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .map((entry) => entry.item);
}
