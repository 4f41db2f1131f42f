import { describe, expect, it } from 'vitest';
import { frameToolsPermission, type FrameFacts } from '@/lib/webmcp/frame-tools-permission';

const page = 'https://shop.example';
const widget = 'https://maps.example';

/** A browser that knows the `tools` policy and answers `allows` for this frame. */
const policy = (allows: boolean): FrameFacts['policy'] => ({ features: () => ['geolocation', 'tools'], allowsFeature: (feature) => feature === 'tools' && allows });
/** A browser without WebMCP: it has a policy object but does not know `tools`. */
const unknownPolicy: FrameFacts['policy'] = { features: () => ['geolocation'], allowsFeature: () => false };

describe('which frames may offer the agent tools', () => {
  it('no sandboxed document, top or framed, whatever the browser says of its policy; a file of this computer may', () => {
    const sandboxed = 'has an opaque origin (it is sandboxed, or a data: address), so no site vouches for its tools';
    expect(frameToolsPermission({ isTop: true, origin: 'null', ancestorOrigins: [], url: 'https://bank.example/', policy: policy(true) })).toEqual({ allowed: false, reason: `this page ${sandboxed}` });
    expect(frameToolsPermission({ isTop: false, origin: 'null', ancestorOrigins: [page], url: 'https://bank.example/', policy: policy(true) })).toEqual({ allowed: false, reason: `this frame ${sandboxed}` });
    expect(frameToolsPermission({ isTop: false, origin: 'null', ancestorOrigins: [page], url: 'about:srcdoc', policy: policy(true) })).toEqual({ allowed: false, reason: `this frame ${sandboxed}` });
    expect(frameToolsPermission({ isTop: true, origin: 'null', ancestorOrigins: [], url: 'file:///home/ada/menu.html' })).toEqual({ allowed: true });
  });


  it('the top frame and a frame of its own origin may, by the browser’s answer or by the default', () => {
    for (const facts of [
      { isTop: true, origin: page, ancestorOrigins: [], policy: policy(true) },
      { isTop: false, origin: page, ancestorOrigins: [page], policy: policy(true) },
      { isTop: true, origin: page, ancestorOrigins: [], policy: unknownPolicy },
      { isTop: false, origin: page, ancestorOrigins: [page, page] },
    ]) {
      expect(frameToolsPermission(facts)).toEqual({ allowed: true });
    }
  });

  it('a frame of another origin may only when the page allowed it (allow="tools")', () => {
    expect(frameToolsPermission({ isTop: false, origin: widget, ancestorOrigins: [page], policy: policy(true) })).toEqual({ allowed: true });
    expect(frameToolsPermission({ isTop: false, origin: widget, ancestorOrigins: [page], policy: policy(false) })).toEqual({
      allowed: false,
      reason: `this frame (${widget}) is from another origin than the page (${page}), which did not allow it tools (allow="tools")`,
    });
  });

  it('a frame of another origin may not where the browser cannot tell, nor a same-origin frame inside it', () => {
    expect(frameToolsPermission({ isTop: false, origin: widget, ancestorOrigins: [page], policy: unknownPolicy })).toMatchObject({ allowed: false });
    expect(frameToolsPermission({ isTop: false, origin: page, ancestorOrigins: [widget, page] })).toEqual({
      allowed: false,
      reason: `this frame (${page}) sits inside a frame of another origin, and this browser cannot tell whether the page allowed it tools`,
    });
    expect(frameToolsPermission({ isTop: false, origin: 'null', ancestorOrigins: [page] })).toMatchObject({ allowed: false });
    // A browser that cannot name a frame's ancestors: the frame is not trusted to be the page's own.
    expect(frameToolsPermission({ isTop: false, origin: page, ancestorOrigins: [] })).toEqual({
      allowed: false,
      reason: `this frame (${page}) is from another origin than the page (an unknown origin), and this browser cannot tell whether the page allowed it tools`,
    });
  });

  it('a page that turns tools off for itself offers none, and a throwing policy object is read as unknown', () => {
    expect(frameToolsPermission({ isTop: true, origin: page, ancestorOrigins: [], policy: policy(false) })).toEqual({
      allowed: false,
      reason: `the page's permissions policy turns tools off for ${page}`,
    });
    const throwing = { features: () => { throw new Error('no'); }, allowsFeature: () => true };
    expect(frameToolsPermission({ isTop: false, origin: widget, ancestorOrigins: [page], policy: throwing })).toMatchObject({ allowed: false });
    expect(frameToolsPermission({ isTop: true, origin: page, ancestorOrigins: [], policy: throwing })).toEqual({ allowed: true });
  });
});

describe('frame tools permission: every ancestor counts', () => {
  it('refuses a frame whose parent shares its origin but whose page does not, where the browser cannot tell', () => {
    // shop.example embeds maps.example (no allow="tools"), which embeds another maps.example frame.
    expect(frameToolsPermission({ isTop: false, origin: 'https://maps.example', ancestorOrigins: ['https://maps.example', 'https://shop.example'] })).toMatchObject({ allowed: false });
  });
});
