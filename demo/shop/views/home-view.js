import { products } from '../catalogue.js';
import { h } from '../dom.js';
import { productGrid } from './product-card.js';

export function homeView() {
  return h('section', { class: 'view' },
    h('div', { class: 'hero' },
      h('h1', {}, 'Gear for slow mornings and long trails'),
      h('p', {}, 'Stoneware mugs, caps, tees and bottles, made in small batches. ',
        'Open the WebMCP agent in your side panel and ask it to shop for you.'),
    ),
    h('h2', {}, 'All products'),
    productGrid(products),
  );
}
