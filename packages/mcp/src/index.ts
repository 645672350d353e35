/**
 * An MCP server over a @cc/hierarchical index, so every MCP client (Claude Desktop, Cursor, an agent
 * framework's MCP client) can search evicted context and read originals back a page at a time.
 *
 * @module @cc/mcp
 */
export {
  createIndexServer,
  decodeIndexServerOptions,
  IndexServerOptionsCodec,
  MAX_EXPAND_CHARS,
  MAX_SEARCH_HITS,
  type ContextHit,
  type ContextPage,
  type IndexServerOptions,
} from "./server.js";
export {
  createStdioTransport,
  decodeStdioTransportOptions,
  DEFAULT_MAX_REQUEST_BYTES,
  StdioTransportOptionsCodec,
  type StdioTransportOptions,
} from "./stdio.js";
