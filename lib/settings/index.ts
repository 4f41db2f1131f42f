export { defaultSettings, parseSettings, settingsSchema, type Settings } from './settings-schema';
export { loadSettings, settingsItem, updateSettings, watchSettings } from './settings-item';
export { agentOffOn } from './agent-off-on';
