import { describe, expect, it } from 'vitest';
import { contrastRatio } from '../support/contrast';
import { readProjectFile as read, token } from '../support/stylesheet';

const theme = read('assets/theme.css');
const inspector = read('entrypoints/devtools-panel/style.css');

// A placeholder says what to do where nothing can be sent ("This tab is asleep: wake it to ask"):
// it is text, 4.5:1 or more (WCAG 1.4.3), where Chrome's own grey gives 3.7:1 in dark mode.
describe('placeholders (WCAG 1.4.3: 4.5:1 or more)', () => {
  it('are drawn in the muted text colour, fully opaque, on the pages built on the theme and in the inspector', () => {
    expect(theme).toMatch(/::placeholder \{ color: var\(--text-muted\); opacity: 1; \}/);
    expect(inspector).toMatch(/::placeholder \{ color: var\(--muted\); opacity: 1; \}/);
  });

  it.each(['light', 'dark'] as const)('hold in %s mode on the backgrounds fields sit on', (mode) => {
    for (const background of ['background', 'surface']) {
      expect(contrastRatio(token(theme, 'text-muted', mode), token(theme, background, mode))).toBeGreaterThanOrEqual(4.5);
    }
    const inspectorBackground = mode === 'light' ? '#ffffff' : token(inspector, 'surface', mode);
    expect(contrastRatio(token(inspector, 'muted', mode), inspectorBackground)).toBeGreaterThanOrEqual(4.5);
  });
});
