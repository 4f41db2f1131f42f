// The site a tab's report of its tools names, the one every rule of a site is kept by: the agent
// off on it, sites allowed, its chat, and the runs on it.
import { siteOfAddress } from '../text/origin-of';
import { isSandboxedDocument } from '../webmcp/frame-tools-permission';

/**
 * The site a report names: its origin, but a sandboxed document's is opaque ('null') on every
 * site, and its address says where it is, so that a sandboxed page is refused where the agent is
 * off on its site and does not share one chat with every other. A file's opaque origin stays
 * 'null': no web site is it.
 */
export function siteOfReport({ origin, url }: { origin: string; url: string }): string {
  return (isSandboxedDocument(origin, url) && siteOfAddress(url)) || origin;
}
