// Hash routing: changing views never reloads the page, so the page's tools and the extension stay connected.

/** @typedef {{ name: 'home' } | { name: 'search', query: string } | { name: 'product', slug: string }
 *   | { name: 'cart' } | { name: 'checkout' } | { name: 'order', number: string } | { name: 'not-found' }} Route */

/** @param {string} hash @returns {Route} */
export function parseRoute(hash) {
  const [pathname = '/', search = ''] = hash.replace(/^#/, '').split('?');
  let parts;
  try {
    parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { name: 'not-found' };
  }
  const [first, second] = parts;
  if (parts.length === 0) return { name: 'home' };
  if (first === 'search' && parts.length === 1) return { name: 'search', query: new URLSearchParams(search).get('q') ?? '' };
  if (first === 'product' && second && parts.length === 2) return { name: 'product', slug: second };
  if (first === 'cart' && parts.length === 1) return { name: 'cart' };
  if (first === 'checkout' && parts.length === 1) return { name: 'checkout' };
  if (first === 'order' && second && parts.length === 2) return { name: 'order', number: second };
  return { name: 'not-found' };
}

export const paths = {
  home: () => '/',
  search: (query) => `/search?q=${encodeURIComponent(query)}`,
  product: (slug) => `/product/${encodeURIComponent(slug)}`,
  cart: () => '/cart',
  checkout: () => '/checkout',
  order: (number) => `/order/${encodeURIComponent(number)}`,
};

export function currentRoute() {
  return parseRoute(location.hash);
}

/** @type {(route: Route) => Promise<void>} */
let showRoute = async () => {};

/** Shows the current route now and again whenever the person follows a link or goes back. */
export function startRouter(handler) {
  showRoute = handler;
  addEventListener('hashchange', () => void showRoute(currentRoute()));
  return showRoute(currentRoute());
}

/**
 * Shows a view and resolves once it is on screen and the page's tools match it.
 * pushState does not fire hashchange, so the view is shown exactly once.
 */
export function navigate(path) {
  if (location.hash !== `#${path}`) history.pushState(null, '', `#${path}`);
  return showRoute(currentRoute());
}
