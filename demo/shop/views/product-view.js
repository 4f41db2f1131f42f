import { addToCart, quantityInCart } from '../cart.js';
import { findProduct, formatPrice } from '../catalogue.js';
import { h } from '../dom.js';
import { announce } from '../notice.js';
import { productArt } from '../product-art.js';
import { averageRating, reviewsFor } from '../reviews.js';
import { paths } from '../router.js';
import { stockLabel } from './product-card.js';
import { notFoundView } from './not-found-view.js';

export function productView(slug) {
  const product = findProduct(slug);
  if (!product) return notFoundView(`There is no product called “${slug}”.`);
  const inCart = quantityInCart(slug);
  return h('section', { class: 'view' },
    h('a', { href: `#${paths.home()}`, class: 'back' }, '← All products'),
    h('div', { class: 'product' },
      productArt(product),
      h('div', { class: 'product-details' },
        h('h1', { 'data-testid': 'product-name' }, product.name),
        h('p', { class: 'product-price' }, formatPrice(product.priceCents), ' ', stockLabel(product)),
        h('p', {}, product.description),
        addForm(product),
        inCart > 0 ? h('p', { class: 'muted' }, `Your cart holds ${inCart}. `, h('a', { href: `#${paths.cart()}` }, 'View cart')) : null,
      ),
    ),
    reviewList(slug),
  );
}

function addForm(product) {
  const soldOut = product.stock === 0;
  const quantity = h('input', {
    id: 'quantity', type: 'number', name: 'quantity', value: 1, min: 1, max: Math.max(1, Math.min(10, product.stock)), disabled: soldOut,
  });
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = (event) => {
    event.preventDefault();
    try {
      addToCart(product.slug, Number(quantity.value));
      announce(`Added ${quantity.value} × ${product.name} to the cart.`);
    } catch (problem) {
      error.textContent = problem instanceof Error ? problem.message : String(problem);
    }
  };
  return h('form', { class: 'add-form', onsubmit: submit },
    h('label', { for: 'quantity' }, 'Quantity'),
    quantity,
    h('button', { type: 'submit', class: 'primary', disabled: soldOut }, soldOut ? 'Sold out' : 'Add to cart'),
    error,
  );
}

function reviewList(slug) {
  const reviews = reviewsFor(slug);
  const average = averageRating(reviews);
  return h('section', { class: 'reviews' },
    h('h2', {}, 'Reviews', average === null ? '' : ` · ${average} / 5`),
    reviews.length === 0
      ? h('p', { class: 'muted' }, 'No reviews yet.')
      : h('ul', {}, reviews.map((review) => h('li', { class: 'review' },
        h('span', { class: 'stars', 'aria-label': `${review.rating} out of 5` }, '★'.repeat(review.rating) + '☆'.repeat(5 - review.rating)),
        h('p', {}, review.text),
        h('p', { class: 'muted' }, `— ${review.author}`),
      ))),
  );
}
