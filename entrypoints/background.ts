export default defineBackground(() => {
  // Later issues wire the tab registry and the agent sessions here.
  void browser.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
