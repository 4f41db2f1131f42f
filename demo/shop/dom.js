/**
 * Creates an element: h('a', { href: '#/', class: 'brand' }, 'Trail & Mug').
 * Children that are strings become text nodes, never markup, so reviews cannot inject HTML.
 * Attributes named on… that hold a function become event listeners.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}
