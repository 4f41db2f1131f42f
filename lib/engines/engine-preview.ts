/**
 * What an engine's first request will do, told before it without loading anything: which model,
 * and what it downloads, or that the person must say go first (`goAheadFirst`: Chrome downloads
 * its built-in model only at a click in the options), and whether it runs slowly here (`slowGpu`: a
 * software adapter, which works, but at a fraction of a graphics chip's speed); or why the engine
 * cannot run here at all.
 */
export type EnginePreview = { model: string; downloadMB?: number; goAheadFirst?: boolean; slowGpu?: true } | { error: string; hint: string };
