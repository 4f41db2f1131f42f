import { cartContents, emptyCart } from './cart.js';
import { formatPrice } from './catalogue.js';

const storageKey = 'trail-and-mug.orders';

/** @typedef {{ number: string, email: string, placedAt: string, totalCents: number,
 *   lines: { slug: string, name: string, quantity: number, lineCents: number }[] }} Order */

// Deliberately loose: the shop only needs to catch typing mistakes, the mail server does the rest.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(text) {
  return typeof text === 'string' && text.length <= 254 && emailPattern.test(text);
}

/** @returns {Record<string, Order>} */
function readOrders() {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(storageKey) ?? '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** @returns {Order | undefined} */
export function findOrder(number) {
  return readOrders()[number];
}

function newOrderNumber() {
  const digits = crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000;
  return `TM-${String(digits).padStart(6, '0')}`;
}

/** Turns the cart into an order and empties the cart. Throws when the cart is empty or the email is not one. */
export function placeOrder(email) {
  if (!isEmail(email)) throw new Error(`"${email}" is not an email address.`);
  const { lines, totalCents } = cartContents();
  if (lines.length === 0) throw new Error('The cart is empty: add a product before checking out.');
  /** @type {Order} */
  const order = {
    number: newOrderNumber(),
    email,
    placedAt: new Date().toISOString(),
    totalCents,
    lines: lines.map((line) => ({
      slug: line.product.slug, name: line.product.name, quantity: line.quantity, lineCents: line.lineCents,
    })),
  };
  sessionStorage.setItem(storageKey, JSON.stringify({ ...readOrders(), [order.number]: order }));
  emptyCart();
  return order;
}

/** One sentence a person or a model can read back. */
export function describeOrder(order) {
  const count = order.lines.reduce((sum, line) => sum + line.quantity, 0);
  const items = order.lines.map((line) => `${line.quantity} × ${line.name}`).join(', ');
  return `Order ${order.number} is placed: ${count} item${count === 1 ? '' : 's'} (${items}), ` +
    `total ${formatPrice(order.totalCents)}. A confirmation goes to ${order.email}.`;
}
