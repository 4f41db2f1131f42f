/**
 * What an engine's first request will do, told before it without loading anything: which model,
 * and what it downloads; or why the engine cannot run here at all.
 */
export type EnginePreview = { model: string; downloadMB?: number } | { error: string; hint: string };
