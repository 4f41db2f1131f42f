import { h } from '../dom.js';
import { searchProducts } from '../search-products.js';
import { navigate, paths } from '../router.js';
import { productGrid } from './product-card.js';

/** The search form, shown in the header and on the results view. */
export function searchForm(query = '', id = 'search') {
  const input = h('input', {
    id, type: 'search', name: 'q', value: query, placeholder: 'Search mugs, caps, tees…', 'aria-label': 'Search products',
  });
  const submit = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) void navigate(paths.search(text));
  };
  return h('form', { class: 'search-form', role: 'search', onsubmit: submit }, input, h('button', { type: 'submit' }, 'Search'));
}

export function searchView(query) {
  const results = searchProducts(query);
  const heading = query ? `Results for “${query}”` : 'Search';
  const summary = query
    ? h('p', { class: 'muted', 'data-testid': 'search-summary' },
      results.length === 0 ? 'No products match. Try “mug”, “cap” or “bottle”.' : `${results.length} found`)
    : h('p', { class: 'muted' }, 'Type what you are looking for.');
  return h('section', { class: 'view' },
    h('h1', {}, heading),
    searchForm(query, 'search-page-input'),
    summary,
    results.length > 0 ? productGrid(results) : null,
  );
}
