export {
  createFieldedBm25Scorer,
  defaultFieldedBm25Options,
  searchScorer,
} from './fielded-bm25-scorer';
export type { FieldedBm25Options } from './fielded-bm25-scorer';
export type { FieldSettings } from './tool-index';
export type { TokenizeOptions } from './tokenize-text';
