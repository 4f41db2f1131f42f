/**
 * The browser as it names itself (`navigator.userAgentData`): Google Chrome, with its major
 * version, or another browser built on Chromium (Chromium itself, Edge, Brave…), which does not
 * come with Chrome's built-in model. Undefined where it does not say.
 */
export interface BrowserBrand {
  name: string;
  chrome: boolean;
  version?: number;
}

interface BrandVersion {
  brand: string;
  version: string;
}

/** Chromium's own brand, which every browser built on it lists too, and the made-up one each lists so that none is matched by its place in the list. */
const plainBrands = /^(Chromium|Not.A.Brand)$/i;

export function browserBrand(brands: readonly BrandVersion[] | undefined = userAgentBrands()): BrowserBrand | undefined {
  if (!brands?.length) return undefined;
  const chrome = brands.find(({ brand }) => brand === 'Google Chrome');
  if (chrome) return { name: 'Google Chrome', chrome: true, ...versionOf(chrome) };
  const own = brands.find(({ brand }) => !plainBrands.test(brand.trim())) ?? brands.find(({ brand }) => brand === 'Chromium');
  return own ? { name: own.brand, chrome: false, ...versionOf(own) } : undefined;
}

function versionOf({ version }: BrandVersion): { version?: number } {
  const major = Number.parseInt(version, 10);
  return Number.isFinite(major) ? { version: major } : {};
}

function userAgentBrands(): readonly BrandVersion[] | undefined {
  return (globalThis.navigator as { userAgentData?: { brands?: readonly BrandVersion[] } } | undefined)?.userAgentData?.brands;
}

/** The first Chrome with the Prompt API for extensions. */
const promptApiChromeVersion = 138;

/**
 * Why this browser has no built-in model (no `LanguageModel` at all), and what would give it one,
 * in words that fit after "Do this, or pick another engine": an older Chrome is updated; a Chrome
 * that has the version turned it off (a policy, a flag); another browser has none to turn on.
 */
export function noBuiltInModelWords(brand: BrowserBrand | undefined): { why: string; todo: string } {
  if (!brand) return { why: "This browser has no built-in model (Chrome's Prompt API).", todo: `Use Chrome ${promptApiChromeVersion} or later on a computer that meets its requirements` };
  if (brand.chrome && brand.version !== undefined && brand.version < promptApiChromeVersion) {
    return { why: `This version of Chrome (${brand.version}) has no built-in model (Chrome's Prompt API).`, todo: `Update Chrome to ${promptApiChromeVersion} or later` };
  }
  if (brand.chrome) return { why: "This Chrome does not offer its built-in model (Chrome's Prompt API): a policy or a flag may have turned it off.", todo: 'Look at chrome://on-device-internals' };
  return { why: `${brand.name} does not include Chrome's built-in model, which comes with Google Chrome ${promptApiChromeVersion} or later.`, todo: 'Use Google Chrome' };
}

/**
 * Where the browser says the model is unavailable: in another browser than Chrome, that is why
 * (Chromium lists the API without the model); undefined in Chrome, whose needs are then the reason.
 */
export function unavailableInBrowserWords(brand: BrowserBrand | undefined): { why: string; todo: string } | undefined {
  if (!brand || brand.chrome) return undefined;
  return { why: `${brand.name} says Chrome's built-in model is unavailable: it comes with Google Chrome only.`, todo: 'Use Google Chrome' };
}
