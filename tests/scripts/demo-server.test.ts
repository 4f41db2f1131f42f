import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startDemoServer, startDemoServerNear } from '../../demo/serve-demo';

describe('the demo shop server', () => {
  it('takes the next free port where the one asked for is taken, and serves the shop there', async () => {
    const taken = await startDemoServer();
    const port = Number(new URL(taken.origin).port);
    const next = await startDemoServerNear(port);
    try {
      expect(Number(new URL(next.origin).port)).not.toBe(port);
      const page = await fetch(next.url('/'));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<html');
    } finally {
      await Promise.all([taken.close(), next.close()]);
    }
  });

  it('`npm run demo` serves the shop on its own and says where', async () => {
    // 8377, or the next free port where something holds it: the script says which.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const said = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ctrl+C')) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`it exited (${code}) saying: ${out}`)));
      });
      const address = /The demo shop is at (\S+) /.exec(said)?.[1];
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect((await fetch(address!)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
  }, 30_000);
});
