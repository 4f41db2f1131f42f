import { resolve } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';

export default defineConfig({
  // The agent core and chat types are addressed by the names the spec's examples import.
  alias: {
    '@webmcp-agents/local-agent': resolve('lib/local-agent/index.ts'),
    '@webmcp-agents/chat': resolve('lib/chat/index.ts'),
  },
  vite: () => ({ plugins: [preact()] }),
  manifest: {
    name: 'WebMCP Local Agent',
    description: 'Talk to a page through its WebMCP tools with a small model that runs on your machine.',
    // unlimitedStorage: models of a gigabyte or more live in the Cache API, and without it Chrome
    // may evict them under disk pressure and caps the extension at a fraction of the disk
    // (measured in Chromium 156: a quota of 10.7 GB against 84 GB with it). Chrome shows no warning for it.
    permissions: ['storage', 'unlimitedStorage', 'webNavigation'],
    // public/icon/ holds 16, 32, 48 and 128 px; WXT lists them as the manifest's `icons` by itself.
    action: { default_title: 'Open the WebMCP agent', default_icon: { 16: 'icon/16.png', 32: 'icon/32.png' } },
    // The action opens the side panel (see the background), so its shortcut opens the panel too;
    // the person may change it at chrome://extensions/shortcuts. (Chrome 156 gives an extension neither
    // Alt+Shift+W nor Alt+Shift+A.)
    commands: { _execute_action: { suggested_key: { default: 'Alt+Shift+M' } } },
    // WebLLM runs WebAssembly; no connect-src, since the model hosts (Hugging Face's CDNs) change.
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  },
});
