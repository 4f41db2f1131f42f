/** A browser event (`chrome.tabs.onActivated` and the like) the test fires itself. */
export function fakeBrowserEvent<Listener extends (...args: never[]) => void>() {
  const registered = new Set<Listener>();
  return {
    registered,
    addListener: (listener: Listener) => void registered.add(listener),
    removeListener: (listener: Listener) => void registered.delete(listener),
    fire: (...args: Parameters<Listener>) => registered.forEach((listener) => listener(...args)),
  };
}
