export { defaultSettings, modelKeptMs, type Settings } from './settings-schema';
export { changedSettings, followSettings, loadSettings, updateSettings, watchSettings, type SettingsChange } from './settings-item';
export { agentOffBy, agentOffOn } from './agent-off-on';
export { disabledSitesWith } from './disabled-sites-with';
export { normalizeSiteOrigin, speaksPlainHttp } from './normalize-site-origin';
