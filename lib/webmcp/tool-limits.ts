/**
 * How much of a page's offer the extension takes. Names follow the WebMCP rule; the other caps
 * are generous for real pages and keep a hostile page from flooding the extension.
 */
export const toolLimits = {
  nameLength: 128,
  titleLength: 256,
  descriptionLength: 10_000,
  /** Characters of the input schema (and of the output schema) written as JSON. */
  schemaCharacters: 64_000,
  schemaDepth: 32,
  /** Values (objects, arrays, strings, numbers…) in the input schema (and in the output schema). */
  schemaValues: 20_000,
  /** Tools taken from one frame; the rest are dropped with a reason. */
  toolsPerFrame: 500,
  /** Characters of all tools of a frame together, as JSON. */
  reportCharacters: 4_000_000,
  /**
   * Frames inside one page (all but the top frame) whose tools a tab takes. Together these frames
   * get one frame's caps (`toolsPerFrame`, `reportCharacters`), and the top frame keeps its own: so
   * a tab holds at most 1,000 tools and 8,000,000 characters however many frames a page makes, and
   * no frame inside it can crowd out the page's own tools. Real pages embed a few such frames.
   */
  innerFramesPerTab: 50,
  /**
   * Frames inside one page a tab keeps anything of (tools, or only the reasons their tools were
   * refused), and the refused tools they may list together: a page cannot make the background
   * carry thousands of frames or refusals either.
   */
  innerFrameEntriesPerTab: 100,
  innerDroppedPerTab: 610,
  /** Characters of a tool's result passed on; the rest is cut. */
  resultCharacters: 1_000_000,
  /** Characters of an error message passed on. */
  errorCharacters: 2_000,
  /** A dropped tool's name is shown cut to this length. */
  droppedNameLength: 80,
} as const;

/** The WebMCP rule for tool names. */
export const toolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/;

/** Default time a tool may take before the call is abandoned and the page's signal aborted. */
export const defaultToolTimeoutMs = 30_000;
