import type { Program } from '../runtime/program'

let loading: Promise<typeof import('./cli')> | undefined

/** isomorphic-git loads on the first `git` command, after the `Buffer` it needs is in place. */
function load() {
  loading ??= import('../buffer')
    .then(() => import('./cli'))
    .catch((error: unknown) => {
      // A failed chunk load (the app was updated, the network dropped) may work on the next try.
      loading = undefined
      throw error
    })
  return loading
}

/** `git` over the project's files, offline (isomorphic-git): see `cli.ts` for what it supports. */
export const runGit: Program = async (request) => (await load()).runGitCommand(request)
