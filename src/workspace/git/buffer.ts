import { Buffer } from 'buffer'

// isomorphic-git calls `Buffer.from`, `Buffer.concat` … as a global (P12 in the toolchain notes): a browser worker
// has none, so the npm package stands in. Imported, and so evaluated, before isomorphic-git is.
globalThis.Buffer ??= Buffer as unknown as typeof globalThis.Buffer
