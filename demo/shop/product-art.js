// Each product is drawn as a small SVG in its own colour, so the shop needs no image files.

const svgNamespace = 'http://www.w3.org/2000/svg';

const colours = {
  'forest green': '#2f6b4f', 'clay red': '#b9573a', 'slate blue': '#5b7186', white: '#eeeae2',
  olive: '#6f7440', sand: '#d8c29d', charcoal: '#3d3f42', navy: '#24345a', rust: '#a4512b',
  'heather grey': '#9a9a96', natural: '#c9a77c',
};

// Outlines on a 120 × 120 canvas; every shape is filled with the product's colour.
const shapes = {
  mug: ['M30 38h50v46a12 12 0 0 1-12 12H42a12 12 0 0 1-12-12z', 'M80 48h6a12 12 0 0 1 0 24h-6v-7h6a5 5 0 0 0 0-10h-6z'],
  cap: ['M24 74a36 34 0 0 1 72 0z', 'M20 74h90a6 6 0 0 1-6 8H24a4 4 0 0 1-4-4z'],
  tee: ['M44 24l-24 14 9 17 11-6v49h40V49l11 6 9-17-24-14a10 10 0 0 1-32 0z'],
  bottle: ['M50 16h20v12H50z', 'M46 30h28a6 6 0 0 1 6 6v62a8 8 0 0 1-8 8H48a8 8 0 0 1-8-8V36a6 6 0 0 1 6-6z'],
  socks: ['M46 18h26v48l18 14a11 11 0 0 1-13 18L52 82a12 12 0 0 1-6-10z'],
  coffee: ['M34 28h52L68 58H52z', 'M44 64h32l6 34a6 6 0 0 1-6 6H44a6 6 0 0 1-6-6z'],
};

function svgElement(tag, attributes) {
  const element = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** An SVG drawing of the product, labelled for screen readers. */
export function productArt(product, size = 'large') {
  const svg = svgElement('svg', { viewBox: '0 0 120 120', class: `art art-${size}`, role: 'img' });
  svg.setAttribute('aria-label', product.name);
  svg.append(svgElement('circle', { cx: 60, cy: 62, r: 52, class: 'art-backdrop' }));
  const fill = colours[product.colour] ?? '#888';
  for (const outline of shapes[product.category] ?? shapes.mug) {
    svg.append(svgElement('path', { d: outline, fill, stroke: 'rgba(0,0,0,0.25)', 'stroke-width': 1.5 }));
  }
  return svg;
}
