import { cartContents, onCartChange } from './cart.js';
import { findProduct } from './catalogue.js';
import { connectModelContext } from './model-context.js';
import { currentRoute, startRouter } from './router.js';
import { registerShopTools } from './tools/register-shop-tools.js';
import { cartView } from './views/cart-view.js';
import { checkoutView } from './views/checkout-view.js';
import { homeView } from './views/home-view.js';
import { notFoundView } from './views/not-found-view.js';
import { orderView } from './views/order-view.js';
import { productView } from './views/product-view.js';
import { searchForm, searchView } from './views/search-view.js';

/** Until the tools are registered, views change without touching them. */
let productTool = { show: async (_product) => {} };

function viewFor(route) {
  switch (route.name) {
    case 'home': return homeView();
    case 'search': return searchView(route.query);
    case 'product': return productView(route.slug);
    case 'cart': return cartView();
    case 'checkout': return checkoutView();
    case 'order': return orderView(route.number);
    case 'not-found': return notFoundView();
  }
}

function render(route) {
  const main = document.getElementById('view');
  main.replaceChildren(viewFor(route));
  const heading = main.querySelector('h1')?.textContent;
  document.title = heading ? `${heading} · Trail & Mug` : 'Trail & Mug';
}

/**
 * The view shown drawn again for what changed under it (the cart, by a click or an agent's call):
 * what the person typed in its fields, and where they were typing, stay.
 */
function renderAgain(route) {
  const main = document.getElementById('view');
  const fields = () => [...main.querySelectorAll('input[name], textarea[name], select[name]')];
  const typed = new Map(fields().map((field) => [field.name, field.value]));
  const focused = main.contains(document.activeElement) ? document.activeElement?.getAttribute('name') : null;
  render(route);
  for (const field of fields()) if (typed.has(field.name)) field.value = typed.get(field.name);
  if (focused) fields().find((field) => field.name === focused)?.focus();
}

/** The route's view, then the tools that belong to it: add_to_cart only on a product page. */
async function showRoute(route) {
  render(route);
  // The header's search box names the search shown, and is empty elsewhere.
  document.getElementById('header-search-input').value = route.name === 'search' ? route.query : '';
  window.scrollTo(0, 0);
  await productTool.show(route.name === 'product' ? findProduct(route.slug) ?? null : null);
}

function showCartCount() {
  document.querySelector('[data-testid="cart-count"]').textContent = String(cartContents().itemCount);
}

async function connectTools() {
  const status = document.getElementById('webmcp-status');
  try {
    const { modelContext, source } = await connectModelContext();
    productTool = await registerShopTools(modelContext);
    const route = currentRoute();
    await productTool.show(route.name === 'product' ? findProduct(route.slug) ?? null : null);
    status.textContent = source === 'browser' ? 'WebMCP tools on (built into the browser)' : 'WebMCP tools on (polyfill)';
    status.dataset.source = source;
  } catch (error) {
    status.textContent = `WebMCP tools off: ${error instanceof Error ? error.message : error}`;
    console.error(error);
  }
}

function start() {
  document.getElementById('header-search').replaceWith(searchForm('', 'header-search-input'));
  showCartCount();
  // Whoever changed the cart, a click or an agent's tool call, the page shows it at once.
  onCartChange(() => {
    showCartCount();
    renderAgain(currentRoute());
  });
  void startRouter(showRoute);
  void connectTools();
}

start();
