import { describe, expect, it } from 'vitest';
import { browserPathFromEnvironment, looksLikeBrandedChrome } from '../../scripts/browser-path';

describe('the browser named for npm start and the end-to-end tests', () => {
  it('is CHROMIUM_PATH, or else CHROME_PATH', () => {
    expect(browserPathFromEnvironment({ CHROMIUM_PATH: '/a', CHROME_PATH: '/b' })).toEqual({ variable: 'CHROMIUM_PATH', path: '/a' });
    expect(browserPathFromEnvironment({ CHROME_PATH: '/b' })).toEqual({ variable: 'CHROME_PATH', path: '/b' });
    expect(browserPathFromEnvironment({ CHROMIUM_PATH: '', CHROME_PATH: '/b' })).toEqual({ variable: 'CHROME_PATH', path: '/b' });
    expect(browserPathFromEnvironment({})).toBeUndefined();
  });

  it('is recognised as branded Google Chrome, which ignores --load-extension', () => {
    for (const path of [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/opt/google/chrome/chrome',
      '/opt/google/chrome-beta/chrome',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Users\\a\\AppData\\Local\\Google\\Chrome SxS\\Application\\chrome.exe',
    ]) expect(looksLikeBrandedChrome(path), path).toBe(true);
  });

  it('is not taken for branded Chrome when it is Chromium or Chrome for Testing', () => {
    for (const path of [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
      '/home/a/.cache/puppeteer/chrome/linux-140.0.7339.80/chrome-linux64/chrome',
      '/home/a/.cache/ms-playwright/chromium-1187/chrome-linux/chrome',
      'C:\\Users\\a\\AppData\\Local\\Chromium\\Application\\chrome.exe',
      '.tmp\\browsers\\chrome\\win64-140.0.7339.80\\chrome-win64\\chrome.exe',
    ]) expect(looksLikeBrandedChrome(path), path).toBe(false);
  });
});
