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
    permissions: ['storage'],
    action: { default_title: 'Open the WebMCP agent' },
  },
});
