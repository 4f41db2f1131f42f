import { browser } from 'wxt/browser';

/** The ids of the tabs open now, in every window. */
export async function openTabIds(): Promise<number[]> {
  return (await browser.tabs.query({})).flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
}
