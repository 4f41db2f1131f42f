// @vitest-environment happy-dom
import { render } from 'preact';
import { describe, expect, it } from 'vitest';
import { AddressText } from '@/components/shared/address-text';

function rendered(text: string) {
  const container = document.createElement('div');
  render(<AddressText text={text} />, container);
  return container;
}

describe('an address that may wrap', () => {
  it.each([
    ['http://127.0.0.1:4078', 'http://|127.|0.|0.|1:|4078'],
    ['shop.example', 'shop.|example'],
    ['http://[::1]:8080', 'http://|[:|:|1]:|8080'],
    ['chrome-extension://abcdefgh/traces.html', 'chrome-extension://|abcdefgh/|traces.|html'],
    ['localhost', 'localhost'],
  ])('breaks %s only after its dots, colons and slashes', (text, parts) => {
    const container = rendered(text);
    expect(container.innerHTML).toBe(parts.split('|').join('<wbr>'));
    expect(container.textContent).toBe(text);
  });
});
