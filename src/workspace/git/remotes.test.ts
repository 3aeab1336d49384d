import { afterEach, describe, expect, it, vi } from 'vitest'
import { gitProject } from './testing/git-project'

afterEach(() => vi.unstubAllGlobals())

describe('the offline git and the network', () => {
  it('has no remote to reach: clone, fetch, pull, push and remote say so, and nothing is requested', async () => {
    const fetched = vi.fn(async () => new Response(''))
    vi.stubGlobal('fetch', fetched)
    const { git } = gitProject()
    await git('init')
    for (const line of ['clone http://127.0.0.1:9/?s=secret', 'fetch http://127.0.0.1:9/', 'pull', 'push http://127.0.0.1:9/ main', 'remote add origin http://127.0.0.1:9/']) {
      const name = line.split(' ')[0]
      expect(await git(line)).toEqual({ stdout: '', stderr: `git: '${name}' is not supported by the offline git (isomorphic-git); see 'git help' for what is.\n`, exitCode: 1 })
    }
    expect(fetched).not.toHaveBeenCalled()
  })
})
