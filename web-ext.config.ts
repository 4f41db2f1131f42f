import { defineWebExtConfig } from 'wxt';

// `npx wxt` must not try to open a browser on machines without a display; `npm start` does that.
export default defineWebExtConfig({ disabled: true });
