import { h } from '../dom.js';
import { paths } from '../router.js';

export function notFoundView(message = 'This page does not exist.') {
  return h('section', { class: 'view' },
    h('h1', {}, 'Not found'),
    h('p', {}, message),
    h('a', { href: `#${paths.home()}` }, 'Back to the shop'),
  );
}
