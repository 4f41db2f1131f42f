export { defaultSettings, parseSettings, settingsSchema, type Settings } from './settings-schema';
export { loadSettings, settingsItem, updateSettings, watchSettings } from './settings-item';
export { agentOffBy, agentOffOn } from './agent-off-on';
export { disabledSitesWith } from './disabled-sites-with';
export { normalizeSiteOrigin } from './normalize-site-origin';
