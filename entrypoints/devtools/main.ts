import { browser } from 'wxt/browser';

// The devtools page only adds the panel; the panel itself is devtools-panel.html.
browser.devtools.panels.create('WebMCP', '', '/devtools-panel.html');
