import { cartContents, removeFromCart } from '../cart.js';
import { formatPrice } from '../catalogue.js';
import { h } from '../dom.js';
import { announce } from '../notice.js';
import { productArt } from '../product-art.js';
import { paths } from '../router.js';

export function cartView() {
  const { lines, totalCents } = cartContents();
  if (lines.length === 0) {
    return h('section', { class: 'view' },
      h('h1', {}, 'Your cart'),
      h('p', { 'data-testid': 'cart-empty' }, 'Your cart is empty. ', h('a', { href: `#${paths.home()}` }, 'Find something you like.')),
    );
  }
  return h('section', { class: 'view' },
    h('h1', {}, 'Your cart'),
    h('ul', { class: 'cart-lines' }, lines.map(cartLine)),
    h('p', { class: 'cart-total' }, 'Total ', h('strong', { 'data-testid': 'cart-total' }, formatPrice(totalCents))),
    h('a', { href: `#${paths.checkout()}`, class: 'button primary' }, 'Check out'),
  );
}

function cartLine({ product, quantity, lineCents }) {
  const remove = () => {
    removeFromCart(product.slug);
    announce(`Removed ${product.name} from the cart.`);
  };
  return h('li', { class: 'cart-line', 'data-testid': 'cart-line', 'data-slug': product.slug },
    productArt(product, 'tiny'),
    h('a', { href: `#${paths.product(product.slug)}`, class: 'cart-line-name' }, product.name),
    h('span', { class: 'cart-line-quantity' }, '× ', h('span', { 'data-testid': 'cart-line-quantity' }, quantity)),
    h('span', { class: 'price' }, formatPrice(lineCents)),
    h('button', { type: 'button', class: 'link', onclick: remove, 'aria-label': `Remove ${product.name}` }, 'Remove'),
  );
}
