import type { Program } from '../runtime/program'

/** Placeholder until the git runtime lands: says plainly that it is not available. */
export const runGit: Program = async ({ argv, onStderr }) => {
  onStderr(`${argv[0]}: git is not available in the offline workspace yet\n`)
  return { exitCode: 127 }
}
