import type { Program } from '../runtime/program'

/** Placeholder until the Python runtime lands: says plainly that it is not available. */
export const runPython: Program = async ({ argv, onStderr }) => {
  onStderr(`${argv[0]}: Python is not available in the offline workspace yet\n`)
  return { exitCode: 127 }
}
