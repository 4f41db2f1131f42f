export { createFieldedBm25Scorer, searchScorer } from './fielded-bm25-scorer';
