/** Every cap an import is held to. Inputs are untrusted: each cap is checked before the work it bounds. */
export const IMPORT_LIMITS = {
  /** Decompressed bytes of a link (a 1 MB fragment of deflate could otherwise expand to ~1 GB). */
  inflatedBytes: 20 * 1024 * 1024,
  /** Characters of a link's payload; longer links are refused before decoding. */
  linkChars: 512 * 1024,
  /** Bytes of an imported file (a backup holds everything, so this is generous). */
  fileBytes: 256 * 1024 * 1024,
  sessions: 5_000,
  messages: 100_000,
  parts: 500_000,
  /** Nesting of child sessions. */
  childDepth: 32,
  /** Nesting of any JSON value (tool inputs and metadata are free-form). */
  jsonDepth: 64,
  /** One string (a part's text, a tool output, a file's content). */
  stringChars: 16 * 1024 * 1024,
  workspaceFiles: 20_000,
} as const

/** Links over this are refused when sharing: Firefox keeps 1 MiB, Chromium 2 MiB, and pasting ~MBs is fragile. */
export const MAX_LINK_CHARS = 512 * 1024

/** What Chrome's address bar still displays whole; the size meter marks it. */
export const COMFORTABLE_LINK_CHARS = 32 * 1024

/** Tool outputs in a share link are cut to this many characters unless the user includes them whole. */
export const DEFAULT_TOOL_OUTPUT_CHARS = 200
