import { Buffer } from 'buffer'

// isomorphic-git, and just-bash's browser build where it reads piped bytes (zcat, gunzip -c), use `Buffer` as a
// global (P12 in the toolchain notes): a browser worker has none, so the npm package stands in. Imported, and so
// evaluated, before either library is.
globalThis.Buffer ??= Buffer as unknown as typeof globalThis.Buffer
