/** A JSON Schema as pages and models write it: only a small subset is ever interpreted. */
export type JSONSchema = { [key: string]: unknown };

/** WebMCP's tool annotations (there is no `destructiveHint` in WebMCP; see below). */
export interface ToolAnnotations {
  /** The tool only reads: it may run without asking the person. */
  readOnlyHint?: boolean;
  /** The tool does something that matters (pays, sends, deletes): always ask first. */
  consequentialHint?: boolean;
  /** The tool returns text the page does not vouch for: fence it as data. */
  untrustedContentHint?: boolean;
  /**
   * Not WebMCP's: set by the extension where the page's WebMCP library hides whether the tool is
   * consequential (a polyfill that drops `consequentialHint`). Such a tool asks every time.
   */
  consequenceUnknown?: boolean;
  /**
   * MCP's word, not WebMCP's: kept where a page gave it (tools ported from an MCP server) and read
   * as `consequentialHint`, which the extension sets beside it. The inspector says to use WebMCP's.
   */
  destructiveHint?: boolean;
}

/** A tool as the chat hands it to an agent: copied out of the page, plain data. */
export interface ToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  annotations?: ToolAnnotations;
}

/** What running a tool gave back, as text the model can read. */
export interface ToolOutput {
  /** The result as text (a page's JSON string, MCP text content joined, or an error message). */
  text: string;
  /** True when the tool failed; `text` then says why. */
  isError?: boolean;
  /**
   * True when no answer came because the document that ran the tool went first (it navigated,
   * reloaded or its frame was removed): the tool may have done its work; `text` says so.
   */
  noAnswer?: boolean;
  /**
   * Characters the result had before the extension cut `text` to carry it between contexts (a
   * page's huge result): what "N of M characters" counts. Absent where nothing was cut.
   */
  fullLength?: number;
}
