import type { Program } from '../runtime/program'

/** Placeholder until the JavaScript runtime lands: says plainly that it is not available. */
export const runNode: Program = async ({ argv, onStderr }) => {
  onStderr(`${argv[0]}: JavaScript is not available in the offline workspace yet\n`)
  return { exitCode: 127 }
}
