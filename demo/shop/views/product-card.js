import { formatPrice } from '../catalogue.js';
import { h } from '../dom.js';
import { productArt } from '../product-art.js';
import { paths } from '../router.js';

/** "Only 3 left", "Sold out" or "In stock": what a shopper needs to know about availability. */
export function stockLabel(product) {
  if (product.stock === 0) return h('span', { class: 'stock stock-out' }, 'Sold out');
  if (product.stock <= 5) return h('span', { class: 'stock stock-low' }, `Only ${product.stock} left`);
  return h('span', { class: 'stock' }, 'In stock');
}

/** A linked card for the catalogue and search grids. */
export function productCard(product) {
  return h('li', { class: 'card', 'data-testid': 'product-card' },
    h('a', { href: `#${paths.product(product.slug)}`, class: 'card-link' },
      productArt(product, 'small'),
      h('span', { class: 'card-name' }, product.name),
      h('span', { class: 'card-meta' }, h('span', { class: 'price' }, formatPrice(product.priceCents)), stockLabel(product)),
    ),
  );
}

export function productGrid(products) {
  return h('ul', { class: 'grid' }, products.map(productCard));
}
