export { chromiumAvailable, chromiumPath, currentServiceWorker, extensionDir, launchExtension, quietBrowserFlags, stopServiceWorker } from './launch-extension';
export type { LaunchedExtension, LaunchOptions } from './launch-extension';
export { serveFixtures } from './serve-fixtures';
export type { FixtureServer } from './serve-fixtures';
export { tabIdOf } from './tab-id-of';
export { screenshotPath } from './screenshot-path';
export { InspectorPage } from './inspector-page';
export type { InspectedPage, ShownRun } from './inspector-page';
export { DevToolsFrontEnd } from './devtools-front-end';
