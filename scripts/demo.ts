// `npm run demo`: serve the demo shop alone, for an extension loaded by hand (`npm run dev`, or
// "Load unpacked" in a browser of your own). Ctrl+C stops it.
import { startDemoServerNear } from '../demo/serve-demo';

const server = await startDemoServerNear(8377);
console.log(`The demo shop is at ${server.url('/')} (Ctrl+C stops it).`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
