import { addToCart, cartSummary } from '../cart.js';
import { formatPrice } from '../catalogue.js';
import { announce } from '../notice.js';
import { requireInteger } from './input-checks.js';

/** add_to_cart for one open product page; the description names the product so a model knows what it adds. */
export function addToCartTool(product) {
  return {
    name: 'add_to_cart',
    title: 'Add to cart',
    description: `Add the open product to the cart: ${product.name}, ${formatPrice(product.priceCents)} each. Returns the cart.`,
    inputSchema: {
      type: 'object',
      properties: { qty: { type: 'integer', minimum: 1, maximum: 10, description: 'How many to add, from 1 to 10.' } },
      required: ['qty'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false },
    async execute(input) {
      const quantity = requireInteger(input, 'qty', 1, 10);
      addToCart(product.slug, quantity);
      announce(`Added ${quantity} × ${product.name} to the cart.`);
      return cartSummary();
    },
  };
}
