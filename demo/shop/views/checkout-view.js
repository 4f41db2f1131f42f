import { cartContents } from '../cart.js';
import { formatPrice } from '../catalogue.js';
import { h } from '../dom.js';
import { placeOrder } from '../orders.js';
import { navigate, paths } from '../router.js';

export function checkoutView() {
  const { lines, itemCount, totalCents } = cartContents();
  if (lines.length === 0) {
    return h('section', { class: 'view' },
      h('h1', {}, 'Checkout'),
      h('p', {}, 'Your cart is empty. ', h('a', { href: `#${paths.home()}` }, 'Back to the shop.')),
    );
  }
  const email = h('input', { id: 'email', type: 'email', name: 'email', required: true, autocomplete: 'email', placeholder: 'you@example.com' });
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = (event) => {
    event.preventDefault();
    try {
      void navigate(paths.order(placeOrder(email.value.trim()).number));
    } catch (problem) {
      error.textContent = problem instanceof Error ? problem.message : String(problem);
    }
  };
  return h('section', { class: 'view narrow' },
    h('h1', {}, 'Checkout'),
    h('p', {}, `${itemCount} item${itemCount === 1 ? '' : 's'}, total `, h('strong', {}, formatPrice(totalCents))),
    h('form', { class: 'checkout-form', onsubmit: submit },
      h('label', { for: 'email' }, 'Email for the receipt'),
      email,
      h('button', { type: 'submit', class: 'primary' }, 'Place order'),
      error,
    ),
  );
}
