export { defaultSettings, parseSettings, settingsSchema, type Settings } from './settings-schema';
export { loadSettings, settingsItem, updateSettings, watchSettings } from './settings-item';
