import { formatPrice } from '../catalogue.js';
import { h } from '../dom.js';
import { findOrder } from '../orders.js';
import { notFoundView } from './not-found-view.js';

export function orderView(number) {
  const order = findOrder(number);
  if (!order) return notFoundView(`No order ${number} was placed in this tab.`);
  return h('section', { class: 'view narrow' },
    h('h1', {}, 'Thank you!'),
    h('p', {}, 'Your order number is ', h('strong', { 'data-testid': 'order-number' }, order.number), '.'),
    h('ul', { class: 'order-lines' }, order.lines.map((line) =>
      h('li', {}, `${line.quantity} × ${line.name}`, h('span', { class: 'price' }, formatPrice(line.lineCents))))),
    h('p', { class: 'cart-total' }, 'Total ', h('strong', {}, formatPrice(order.totalCents))),
    h('p', { class: 'muted' }, `A receipt is on its way to ${order.email}.`),
  );
}
