import { dollars, findProduct, requireProduct } from './catalogue.js';

// The cart survives reloads within the tab, as a real shop's would.
const storageKey = 'trail-and-mug.cart';

/** @typedef {{ slug: string, quantity: number }} CartEntry */

/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {CartEntry[]} */
function readEntries() {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(storageKey) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry) => findProduct(entry?.slug) && Number.isInteger(entry.quantity) && entry.quantity > 0);
  } catch {
    return [];
  }
}

function writeEntries(entries) {
  sessionStorage.setItem(storageKey, JSON.stringify(entries));
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change to the cart; returns a function that stops it. */
export function onCartChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many of this product the cart holds. */
export function quantityInCart(slug) {
  return readEntries().find((entry) => entry.slug === slug)?.quantity ?? 0;
}

/** Adds `quantity` of a product, refusing more than the shop has in stock. */
export function addToCart(slug, quantity) {
  const item = requireProduct(slug);
  if (item.stock === 0) throw new Error(`${item.name} is sold out.`);
  const entries = readEntries();
  const entry = entries.find((candidate) => candidate.slug === slug);
  const total = (entry?.quantity ?? 0) + quantity;
  if (total > item.stock) {
    const held = entry ? ` (the cart already holds ${entry.quantity})` : '';
    throw new Error(`Only ${item.stock} of ${item.name} are in stock${held}.`);
  }
  if (entry) entry.quantity = total;
  else entries.push({ slug, quantity });
  writeEntries(entries);
}

/** Removes a product's line from the cart. */
export function removeFromCart(slug) {
  const item = requireProduct(slug);
  const entries = readEntries();
  if (!entries.some((entry) => entry.slug === slug)) throw new Error(`${item.name} is not in the cart.`);
  writeEntries(entries.filter((entry) => entry.slug !== slug));
}

export function emptyCart() {
  writeEntries([]);
}

/** The cart's lines with names and prices, and its totals. */
export function cartContents() {
  const lines = readEntries().map((entry) => {
    const item = requireProduct(entry.slug);
    return { product: item, quantity: entry.quantity, lineCents: item.priceCents * entry.quantity };
  });
  const itemCount = lines.reduce((count, line) => count + line.quantity, 0);
  const totalCents = lines.reduce((sum, line) => sum + line.lineCents, 0);
  return { lines, itemCount, totalCents };
}

/** The cart as tools return it: plain data a model can read. */
export function cartSummary() {
  const { lines, itemCount, totalCents } = cartContents();
  return {
    items: lines.map((line) => ({
      slug: line.product.slug,
      name: line.product.name,
      quantity: line.quantity,
      unitPrice: dollars(line.product.priceCents),
      lineTotal: dollars(line.lineCents),
    })),
    itemCount,
    total: dollars(totalCents),
    currency: 'USD',
  };
}
