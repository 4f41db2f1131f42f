import { answeringErrors } from './error-result.js';
import { productToolSlot } from './product-tool-slot.js';
import { shopTools } from './shop-tools.js';

/** Registers the tools every view offers; returns the slot that adds and removes add_to_cart. */
export async function registerShopTools(modelContext) {
  // The shop's tools live as long as the page, so they need no abort signal.
  await Promise.all(shopTools().map((tool) => modelContext.registerTool(answeringErrors(tool))));
  return productToolSlot(modelContext);
}
