import { modelCatalog, modelLabel, type CatalogModel } from '../model-catalog';

/** The parts of the Cache API this reads; WebLLM keeps models in three caches of the extension. */
export interface CacheLike {
  keys(): Promise<readonly Request[]>;
  match(request: Request | string): Promise<Response | undefined>;
  delete(request: Request | string): Promise<boolean>;
}

export interface CacheStorageLike {
  has(name: string): Promise<boolean>;
  open(name: string): Promise<CacheLike>;
  delete(name: string): Promise<boolean>;
}

/** One model's files on this computer. */
export interface StoredModel {
  /** The weights' base URL, the key WebLLM files them under. */
  baseUrl: string;
  /** WebLLM's model id for a catalog model, else the repository's name. */
  modelId: string;
  label: string;
  bytes: number;
  files: number;
  /** Every weight shard is there; false after a download that stopped part way. */
  complete: boolean;
  catalog?: CatalogModel;
}

const weightsCache = 'webllm/model';
const configCache = 'webllm/config';
const libraryCache = 'webllm/wasm';

/** The models WebLLM has stored, largest first, with the space each takes. */
export async function listStoredModels(cacheStorage: CacheStorageLike = globalThis.caches): Promise<StoredModel[]> {
  if (!(await cacheStorage.has(weightsCache))) return [];
  const weights = await cacheStorage.open(weightsCache);
  const groups = new Map<string, Request[]>();
  for (const request of await weights.keys()) {
    const baseUrl = /^.*\/resolve\/[^/]+\//.exec(request.url)?.[0];
    if (baseUrl) groups.set(baseUrl, [...(groups.get(baseUrl) ?? []), request]);
  }
  const models: StoredModel[] = [];
  for (const [baseUrl, requests] of groups) {
    const catalog = modelCatalog.find((model) => baseUrl === weightsBaseUrl(model));
    const library = catalog ? await libraryEntries(cacheStorage, catalog) : [];
    const configs = await entriesUnder(cacheStorage, configCache, baseUrl);
    const sizes = await Promise.all([...requests.map((request) => sizeOf(weights, request)), ...library, ...configs]);
    models.push({
      baseUrl,
      modelId: catalog?.id ?? repositoryName(baseUrl),
      label: catalog ? modelLabel(catalog) : repositoryName(baseUrl),
      bytes: sizes.reduce((sum, size) => sum + size, 0),
      files: sizes.length,
      complete: await allShardsStored(weights, baseUrl, requests),
      ...(catalog ? { catalog } : {}),
    });
  }
  return models.sort((a, b) => b.bytes - a.bytes);
}

/** Whether every weight shard of `model` is stored, by WebLLM's own test; reads no sizes. */
export async function isModelStored(model: CatalogModel, cacheStorage: CacheStorageLike = globalThis.caches): Promise<boolean> {
  if (!(await cacheStorage.has(weightsCache))) return false;
  const weights = await cacheStorage.open(weightsCache);
  const baseUrl = weightsBaseUrl(model);
  const requests = (await weights.keys()).filter((request) => request.url.startsWith(baseUrl));
  return allShardsStored(weights, baseUrl, requests);
}

/**
 * Megabytes of `downloadMB` still to download for the weights at `baseUrl` (see `weightsBaseUrl`):
 * all of them, less the shards a download that stopped part way stored. At least 1: a model not
 * stored whole has something left to fetch, whatever the catalogue's figure said.
 */
export async function megabytesLeftToDownload(baseUrl: string, downloadMB: number, cacheStorage: CacheStorageLike = globalThis.caches): Promise<number> {
  const stored = await entriesUnder(cacheStorage, weightsCache, baseUrl).catch(() => []);
  const storedMB = stored.reduce((sum, size) => sum + size, 0) / megabyte;
  return Math.max(1, Math.round(downloadMB - storedMB));
}

const megabyte = 1024 * 1024;

/**
 * Removes the stored models whose weights' base URLs are `baseUrls` (each as `deleteStoredModel`
 * does), or every stored file where `baseUrls` is undefined.
 */
export async function deleteStoredModels(baseUrls: readonly string[] | undefined, cacheStorage: CacheStorageLike = globalThis.caches): Promise<void> {
  if (baseUrls === undefined) return deleteAllStoredModels(cacheStorage);
  for (const baseUrl of baseUrls) {
    const catalog = modelCatalog.find((model) => baseUrl === weightsBaseUrl(model));
    await deleteStoredModel({ baseUrl, ...(catalog ? { catalog } : {}) }, cacheStorage);
  }
}

/** Removes one model's weights, configuration and (unless another stored model shares it) library. */
export async function deleteStoredModel(model: Pick<StoredModel, 'baseUrl' | 'catalog'>, cacheStorage: CacheStorageLike = globalThis.caches): Promise<void> {
  for (const name of [weightsCache, configCache]) {
    if (!(await cacheStorage.has(name))) continue;
    const cache = await cacheStorage.open(name);
    const requests = (await cache.keys()).filter((request) => request.url.startsWith(model.baseUrl));
    await Promise.all(requests.map((request) => cache.delete(request)));
  }
  const libraryFile = model.catalog?.libraryFile;
  if (!libraryFile || !(await cacheStorage.has(libraryCache))) return;
  const others = (await listStoredModels(cacheStorage)).filter((stored) => stored.catalog?.libraryFile === libraryFile);
  if (others.length > 0) return;
  const libraries = await cacheStorage.open(libraryCache);
  for (const request of await libraries.keys()) {
    if (request.url.endsWith(`/${libraryFile}`)) await libraries.delete(request);
  }
}

/** Removes one library (WebLLM's compiled model code) by its address, whichever models share it. */
export async function deleteStoredLibrary(url: string, cacheStorage: CacheStorageLike = globalThis.caches): Promise<void> {
  if (!(await cacheStorage.has(libraryCache))) return;
  await (await cacheStorage.open(libraryCache)).delete(url);
}

/** Removes everything WebLLM stored. */
export async function deleteAllStoredModels(cacheStorage: CacheStorageLike = globalThis.caches): Promise<void> {
  await Promise.all([weightsCache, configCache, libraryCache].map((name) => cacheStorage.delete(name)));
}

export function weightsBaseUrl(model: CatalogModel): string {
  return `https://huggingface.co/${model.repository}/resolve/main/`;
}

async function libraryEntries(cacheStorage: CacheStorageLike, model: CatalogModel): Promise<number[]> {
  if (!(await cacheStorage.has(libraryCache))) return [];
  const libraries = await cacheStorage.open(libraryCache);
  const requests = (await libraries.keys()).filter((request) => request.url.endsWith(`/${model.libraryFile}`));
  return Promise.all(requests.map((request) => sizeOf(libraries, request)));
}

async function entriesUnder(cacheStorage: CacheStorageLike, name: string, baseUrl: string): Promise<number[]> {
  if (!(await cacheStorage.has(name))) return [];
  const cache = await cacheStorage.open(name);
  const requests = (await cache.keys()).filter((request) => request.url.startsWith(baseUrl));
  return Promise.all(requests.map((request) => sizeOf(cache, request)));
}

/** The stored size: the `Content-Length` the server sent, else the body's size. */
async function sizeOf(cache: CacheLike, request: Request): Promise<number> {
  const response = await cache.match(request);
  if (!response) return 0;
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/** WebLLM's own test: the shard list (`tensor-cache.json`) is stored and so is every shard in it. */
async function allShardsStored(weights: CacheLike, baseUrl: string, requests: readonly Request[]): Promise<boolean> {
  const manifest = await weights.match(`${baseUrl}tensor-cache.json`);
  if (!manifest) return false;
  try {
    const { records } = (await manifest.json()) as { records?: { dataPath?: string }[] };
    const stored = new Set(requests.map((request) => request.url));
    return Array.isArray(records) && records.every((record) => stored.has(new URL(String(record.dataPath), baseUrl).href));
  } catch {
    return false;
  }
}

function repositoryName(baseUrl: string): string {
  return /\/([^/]+)\/resolve\//.exec(baseUrl)?.[1] ?? baseUrl;
}
