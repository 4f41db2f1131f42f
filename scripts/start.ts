// `npm start`: build the extension, serve the demo shop, and open a browser with both.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServerNear } from '../demo/serve-demo';
import { browserPathFromEnvironment, loadUnpackedSteps, looksLikeBrandedChrome } from './browser-path';
import { forgetCachedWorkers } from './forget-cached-workers';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const extensionDir = join(projectRoot, '.output', 'chrome-mv3');
const profileDir = join(projectRoot, '.tmp', 'profile');
const preferredPort = 8377;
const isWindows = process.platform === 'win32';

function buildExtension(): void {
  console.log('Building the extension (wxt build)…');
  const build = spawnSync('npx', ['wxt', 'build'], { cwd: projectRoot, stdio: 'inherit', shell: isWindows });
  if (build.status !== 0) {
    console.error('The build failed (see above); nothing was started.');
    process.exit(build.status ?? 1);
  }
}

function onPath(name: string): string | undefined {
  const suffixes = isWindows ? ['.exe', ''] : [''];
  for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const suffix of suffixes) {
      const candidate = join(folder, name + suffix);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

// Where Chrome for Testing and Chromium sit inside one downloaded version's folder, per platform.
const executablesInVersionFolder = [
  'chrome-linux64/chrome',
  'chrome-linux/chrome',
  'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
  'chrome-win64/chrome.exe',
  'chrome-win/chrome.exe',
];

/** Chrome for Testing downloaded by `npx @puppeteer/browsers`, by Puppeteer, or by Playwright; newest first. */
function downloadedBrowsers(): string[] {
  const home = homedir();
  const playwrightCaches = [
    process.env.PLAYWRIGHT_BROWSERS_PATH,
    join(home, '.cache', 'ms-playwright'),
    join(home, 'Library', 'Caches', 'ms-playwright'),
    join(process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'ms-playwright'),
  ];
  const caches = [
    { folder: join(projectRoot, '.tmp', 'browsers', 'chrome'), prefix: '' },
    { folder: join(projectRoot, 'chrome'), prefix: '' },
    { folder: join(home, '.cache', 'puppeteer', 'chrome'), prefix: '' },
    ...playwrightCaches.filter((folder): folder is string => Boolean(folder)).map((folder) => ({ folder, prefix: 'chromium-' })),
  ];
  const found: string[] = [];
  for (const { folder, prefix } of caches) {
    if (!existsSync(folder)) continue;
    const versions = readdirSync(folder).filter((name) => name.startsWith(prefix));
    versions.sort((left, right) => right.localeCompare(left, 'en', { numeric: true }));
    for (const version of versions) {
      found.push(...executablesInVersionFolder.map((inside) => join(folder, version, inside)).filter(existsSync));
    }
  }
  return found;
}

/** CHROMIUM_PATH (or CHROME_PATH) first, then Chromium on the PATH, then Chrome for Testing. */
function findBrowser(): string | undefined {
  const fromEnvironment = browserPathFromEnvironment();
  if (fromEnvironment && existsSync(fromEnvironment.path)) return fromEnvironment.path;
  if (fromEnvironment) console.warn(`${fromEnvironment.variable} is ${fromEnvironment.path}, which does not exist; looking elsewhere.`);
  const macApps = ['/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing'];
  return onPath('chromium') ?? onPath('chromium-browser') ?? macApps.find((path) => existsSync(path)) ??
    downloadedBrowsers()[0] ?? onPath('chrome');
}

function explainMissingBrowser(shopUrl: string): void {
  console.log(`
No Chromium or Chrome for Testing was found. Install one of them, then run \`npm start\` again:
  • Debian or Ubuntu:   sudo apt-get install chromium
  • Any system:         npx @puppeteer/browsers install chrome@stable --path .tmp/browsers
                        (Chrome for Testing)
  • Or set CHROMIUM_PATH to any Chromium or Chrome for Testing build.
${loadUnpackedSteps(extensionDir)}
(or load it with the DevTools Protocol's Extensions.loadUnpacked), then open ${shopUrl}
with chrome://flags/#enable-webmcp-testing turned on.

The demo shop keeps running at ${shopUrl}. Press Ctrl+C to stop it.`);
}

/** The path itself, or the file a link leads to, is branded Google Chrome. */
function isBrandedChrome(browserPath: string): boolean {
  if (looksLikeBrandedChrome(browserPath)) return true;
  try {
    return looksLikeBrandedChrome(realpathSync(browserPath));
  } catch {
    return false;
  }
}

function launchBrowser(browserPath: string, shopUrl: string): ChildProcess {
  mkdirSync(profileDir, { recursive: true });
  // The profile is kept from one start to the next; the background just built must be the one that runs.
  forgetCachedWorkers(profileDir);
  const flags = [
    `--user-data-dir=${profileDir}`,
    `--load-extension=${extensionDir}`,
    `--disable-extensions-except=${extensionDir}`,
    '--enable-features=WebMCP',
    '--no-first-run',
    '--no-default-browser-check',
  ];
  // Chromium refuses to start as root with its sandbox on; only then is turning it off needed.
  if (process.platform === 'linux' && process.getuid?.() === 0) flags.push('--no-sandbox');
  console.log(`Opening ${browserPath}\n  ${[...flags, shopUrl].join('\n  ')}`);
  return spawn(browserPath, [...flags, shopUrl], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main(): Promise<void> {
  buildExtension();
  const server = await startDemoServerNear(preferredPort);
  const shopUrl = server.url('/');
  console.log(`The demo shop is at ${shopUrl}`);

  let browser: ChildProcess | undefined;
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    if (browser?.exitCode === null) browser.kill();
    await server.close();
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(130));
  process.on('SIGTERM', () => void stop(143));

  const browserPath = findBrowser();
  if (!browserPath) return explainMissingBrowser(shopUrl);
  const branded = isBrandedChrome(browserPath);
  if (branded) {
    console.warn(`
${browserPath} looks like branded Google Chrome: it opens without the extension.
${loadUnpackedSteps(extensionDir)}
in the browser that opens now. Or set CHROMIUM_PATH to a Chromium or Chrome for Testing build.
`);
  }
  browser = launchBrowser(browserPath, shopUrl);
  console.log(`${branded ? 'Once the extension is loaded, open' : 'Open'} the Extensions menu (the puzzle piece in the toolbar) and ` +
    'click "WebMCP Local Agent" to open its side panel; the pin beside it keeps its icon on the toolbar. ' +
    'Close the browser or press Ctrl+C to stop.');
  browser.on('error', (error) => {
    console.error(`Could not start ${browserPath}: ${error.message}`);
    void stop(1);
  });
  browser.on('exit', (code) => {
    console.log(`The browser closed${code ? ` (exit code ${code})` : ''}; the demo shop has stopped.`);
    const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
    if (code && noDisplay) console.log('There is no display here ($DISPLAY is not set): `npm start` needs a desktop session.');
    void stop(code ?? 0);
  });
}

await main();
