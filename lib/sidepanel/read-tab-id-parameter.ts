/** The tab a panel opened as a normal page (`sidepanel.html?tabId=N`) is fixed to, if any. */
export function readTabIdParameter(search: string): number | undefined {
  const value = new URLSearchParams(search).get('tabId');
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const tabId = Number(value);
  return Number.isSafeInteger(tabId) ? tabId : undefined;
}
