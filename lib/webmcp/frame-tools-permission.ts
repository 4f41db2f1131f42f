/** What a frame knows about itself that decides whether its tools may be used. */
export interface FrameFacts {
  /** Whether this is the tab's top frame. */
  isTop: boolean;
  /** The frame's own origin. */
  origin: string;
  /** The origins of the frames around it, nearest first (`location.ancestorOrigins`); empty at the top. */
  ancestorOrigins: readonly string[];
  /** The browser's permissions policy for the document, when it has one (`document.featurePolicy`). */
  policy?: { features(): string[]; allowsFeature(feature: string): boolean };
  /** The document's address (`location.href`). */
  url?: string;
}

export type FrameToolsPermission = { allowed: true } | { allowed: false; reason: string };

/** The WebMCP permissions-policy feature a document needs to offer tools. */
const toolsFeature = 'tools';

/**
 * Whether the agent of the tab may use this frame's tools, by WebMCP's own rule: the `tools`
 * permissions policy, whose default allowlist is `'self'`, so a frame from another origin needs its
 * page's `allow="tools"`. Where the browser does not know the policy (WebMCP is off), the default is
 * applied by hand: the frame and every frame around it must share one origin. Never throws.
 */
export function frameToolsPermission(frame: FrameFacts): FrameToolsPermission {
  if (isSandboxedDocument(frame.origin, frame.url)) return refuse(sandboxedReason(frame.isTop));
  const topOrigin = topOriginOf(frame);
  // A frame that cannot name its ancestors is treated as if one of them were foreign.
  const foreign = !frame.isTop && (frame.ancestorOrigins.length === 0 || frame.ancestorOrigins.some((origin) => origin !== frame.origin));
  const known = policyAnswer(frame.policy);
  if (known === true) return { allowed: true };
  if (known === false && !foreign) return refuse(`the page's permissions policy turns tools off for ${frame.origin}`);
  if (known === false) return refuse(whereItSits(frame, topOrigin, 'which did not allow it tools (allow="tools")'));
  if (!foreign) return { allowed: true };
  return refuse(whereItSits(frame, topOrigin, 'and this browser cannot tell whether the page allowed it tools'));
}

/**
 * Whether a document runs sandboxed: its origin is opaque ("null"), and it is not a file of this
 * computer (whose origin Chrome makes opaque too). Any site's page can run so, framed or opened by
 * a page that hid its site: no site vouches for its tools, nor do the person's lists name it.
 */
export function isSandboxedDocument(origin: string, url: string | undefined): boolean {
  return origin === 'null' && !url?.startsWith('file:');
}

/** Why a sandboxed document's tools are not used (a `data:` frame's origin is opaque too). */
export function sandboxedReason(isTop: boolean): string {
  return `this ${isTop ? 'page' : 'frame'} has an opaque origin (it is sandboxed, or a data: address), so no site vouches for its tools`;
}

function refuse(reason: string): FrameToolsPermission {
  return { allowed: false, reason: reason.slice(0, 500) };
}

/** "this frame (x) is from another origin than the page (y), …", or where a frame of the page's origin sits. */
function whereItSits(frame: FrameFacts, topOrigin: string, rest: string): string {
  if (frame.origin !== topOrigin) return `this frame (${frame.origin}) is from another origin than the page (${topOrigin}), ${rest}`;
  return `this frame (${frame.origin}) sits inside a frame of another origin, ${rest}`;
}

/** The origin of the tab's top frame, as far as this frame can tell. */
export function topOriginOf(frame: FrameFacts): string {
  return frame.ancestorOrigins.at(-1) ?? (frame.isTop ? frame.origin : 'an unknown origin');
}

/** The browser's answer, or undefined when it has no policy or does not know the feature. */
function policyAnswer(policy: FrameFacts['policy']): boolean | undefined {
  try {
    if (!policy || !policy.features().includes(toolsFeature)) return undefined;
    return policy.allowsFeature(toolsFeature);
  } catch {
    return undefined;
  }
}

/** This frame's facts, read from the document the content script runs in. */
export function readFrameFacts(): FrameFacts {
  const policy = (document as Document & { featurePolicy?: FrameFacts['policy'] }).featurePolicy;
  return {
    isTop: window.top === window,
    origin: documentOrigin(),
    ancestorOrigins: Array.from(location.ancestorOrigins ?? []),
    ...(policy ? { policy } : {}),
    url: location.href,
  };
}

/**
 * The origin the document runs with: a frame written by script (about:blank) or from `srcdoc`
 * has its creator's, which its address (`location.origin`, "null") does not say; a sandboxed
 * frame has none ("null") whatever its address.
 */
function documentOrigin(): string {
  return typeof self.origin === 'string' ? self.origin : location.origin;
}
