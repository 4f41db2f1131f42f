/**
 * What an engine's first request will do, told before it without loading anything: which model,
 * and what it downloads, or that the person must say go first (`goAheadFirst`: Chrome downloads
 * its built-in model only at a click in the options); or why the engine cannot run here at all.
 */
export type EnginePreview = { model: string; downloadMB?: number; goAheadFirst?: boolean } | { error: string; hint: string };
