/** A tool output longer than either limit is cut for the model; the whole text is saved for it to page through. */
export const MAX_OUTPUT_LINES = 2_000
export const MAX_OUTPUT_BYTES = 50 * 1024

/** Where the model finds a saved full output once the workspace tools exist (they serve this folder). */
export const OUTPUT_FOLDER = '/.tabcode/tool-output'
