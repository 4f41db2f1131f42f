import { addToCartTool } from './add-to-cart-tool.js';
import { answeringErrors } from './error-result.js';

/**
 * Keeps add_to_cart registered exactly while a product page is open, for that product.
 * Changes run one after another, so a quick run of navigations never registers the tool twice.
 */
export function productToolSlot(modelContext) {
  /** @type {{ slug: string, registration: AbortController } | null} */
  let current = null;
  let queue = Promise.resolve();

  async function update(product) {
    if (current?.slug === product?.slug) return;
    // Aborting the registration's signal is how WebMCP unregisters a tool.
    current?.registration.abort();
    current = null;
    if (!product) return;
    const registration = new AbortController();
    current = { slug: product.slug, registration };
    await modelContext.registerTool(answeringErrors(addToCartTool(product)), { signal: registration.signal });
  }

  return {
    /** Shows add_to_cart for `product`, or removes it when `product` is null; resolves once done. */
    show(product) {
      queue = queue.then(() => update(product)).catch((error) => console.error('add_to_cart registration failed', error));
      return queue;
    },
  };
}
