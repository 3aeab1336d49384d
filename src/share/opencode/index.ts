export { fromOpencodeExport, fromOpencodeExports } from './from-opencode'
export { toOpencodeExport, toOpencodeExports } from './to-opencode'
export { NotAnOpencodeExportError, OpencodeExportInvalidError } from './errors'
export type { OpencodeExport, OpencodeMessage, OpencodeSessionInfo } from './opencode-format'
