import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { DEFAULT_TOKEN, startGitHttpServer, type GitHttpServer } from '../../../test-servers/git-http-server.mjs'
import type { GitRemotes } from '../runtime/program'
import { committedProject, gitProject, TEST_IDENTITY } from './testing/git-project'

// The remote commands against a real git server (Debian's `git http-backend` behind test-servers/git-http-server.mjs),
// over the same fetch the browser uses.

let server: GitHttpServer
let count = 0

beforeAll(async () => {
  server = await startGitHttpServer({ port: 0 })
})
afterAll(() => server.close())

/** A fresh empty repository on the server; its URL. */
async function newRepository(): Promise<string> {
  const name = `repo-${++count}`
  const response = await fetch(`${server.url}/_create/${name}`, { method: 'POST' })
  expect(response.status).toBe(201)
  return `${server.url}/${name}.git`
}

/** The app's side of the remotes: the tokens kept, and what the user types when asked (undefined: Cancel). */
function appRemotes(answers: (string | undefined)[] = [], stored: Record<string, string> = {}) {
  const tokens = new Map(Object.entries(stored))
  const remotes = {
    corsProxy: vi.fn(async () => undefined),
    token: vi.fn(async (host: string) => tokens.get(host)),
    askToken: vi.fn(async () => answers.shift()),
    saveToken: vi.fn(async (host: string, token: string) => void tokens.set(host, token)),
    forgetToken: vi.fn(async (host: string) => void tokens.delete(host)),
  } satisfies GitRemotes
  return { remotes, tokens }
}

/** git on the host, for the other side of the remote (never synchronous: the server answers in this process). */
async function hostGit(cwd: string, ...args: string[]): Promise<string> {
  const identity = ['-c', `user.name=${TEST_IDENTITY.name}`, '-c', `user.email=${TEST_IDENTITY.email}`]
  return (await promisify(execFile)('git', [...identity, ...args], { cwd, encoding: 'utf8' })).stdout
}

async function hostClone(url: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tabcode-host-clone-'))
  await hostGit(dir, 'clone', '--quiet', url, 'checkout')
  return join(dir, 'checkout')
}

function withToken(url: string): string {
  return url.replace('http://', `http://user:${DEFAULT_TOKEN}@`)
}

describe('git clone, push, fetch and pull over HTTP', { timeout: 30_000 }, () => {
  it('pushes after asking for the token once, keeps it only once the server took it, and a clone by git sees the commit', async () => {
    const url = await newRepository()
    const host = new URL(url).host
    const { remotes, tokens } = appRemotes([DEFAULT_TOKEN])
    const { git, write } = gitProject({}, { remotes })
    expect(await git(`clone ${url}`)).toEqual({
      stdout: '',
      stderr: `Cloning into '${url.split('/').at(-1)!.replace('.git', '')}'...\nwarning: You appear to have cloned an empty repository.\n`,
      exitCode: 0,
    })
    const cwd = `/workspace/${url.split('/').at(-1)!.replace('.git', '')}`
    await git(`config user.name "${TEST_IDENTITY.name}"`, { cwd })
    await git(`config user.email ${TEST_IDENTITY.email}`, { cwd })
    await write(`${cwd.slice('/workspace/'.length)}/README.md`, 'hello\n')
    await git('add .', { cwd })
    await git('commit -m first', { cwd })

    const pushed = await git('push -u origin main', { cwd })
    expect(pushed.stderr).toBe(`To ${url}\n * [new branch]      main -> main\n`)
    expect(pushed.stdout).toBe("branch 'main' set up to track 'origin/main'.\n")
    expect(pushed.exitCode).toBe(0)
    expect(remotes.askToken).toHaveBeenCalledTimes(1)
    expect(remotes.askToken).toHaveBeenCalledWith({ host, url }, expect.anything())
    expect(tokens.get(host)).toBe(DEFAULT_TOKEN)

    const checkout = await hostClone(url)
    expect(readFileSync(join(checkout, 'README.md'), 'utf8')).toBe('hello\n')
    expect(await hostGit(checkout, 'log', '--format=%s')).toBe('first\n')

    // The next push uses the kept token without asking.
    await write(`${cwd.slice('/workspace/'.length)}/README.md`, 'hello again\n')
    await git('commit -am second', { cwd })
    expect((await git('status', { cwd })).stdout).toContain(
      "On branch main\nYour branch is ahead of 'origin/main' by 1 commit.\n  (use \"git push\" to publish your local commits)\n\nnothing to commit",
    )
    const again = await git('push', { cwd })
    expect(again.exitCode).toBe(0)
    expect(again.stderr).toMatch(/^To .*\n {3}[0-9a-f]{7}\.\.[0-9a-f]{7} {2}main -> main\n$/)
    expect(remotes.askToken).toHaveBeenCalledTimes(1)
    expect((await git('status -sb', { cwd })).stdout).toBe('## main...origin/main\n')
  })

  it('fetches and pulls a commit pushed by someone else, and status says how far behind the branch was', async () => {
    const url = await newRepository()
    const seed = await hostClone(url)
    writeFileSync(join(seed, 'a.txt'), 'one\n')
    await hostGit(seed, 'add', '.')
    await hostGit(seed, 'commit', '-qm', 'one')
    await hostGit(seed, 'push', '-q', withToken(url), 'main')

    const { remotes } = appRemotes()
    const { git, read } = gitProject({}, { remotes })
    expect((await git(`clone ${url} app`)).exitCode).toBe(0)
    expect(await read('app/a.txt')).toBe('one\n')
    const cwd = '/workspace/app'
    expect((await git('remote -v', { cwd })).stdout).toBe(`origin\t${url} (fetch)\norigin\t${url} (push)\n`)
    expect((await git('log --oneline', { cwd })).stdout).toMatch(/^[0-9a-f]{7} \(HEAD -> main, origin\/main, origin\/HEAD\) one\n$/)
    expect((await git('branch -a', { cwd })).stdout).toBe('* main\n  remotes/origin/HEAD -> origin/main\n  remotes/origin/main\n')

    writeFileSync(join(seed, 'a.txt'), 'two\n')
    await hostGit(seed, 'commit', '-qam', 'two')
    await hostGit(seed, 'push', '-q', withToken(url), 'main')

    const fetched = await git('fetch', { cwd })
    expect(fetched.exitCode).toBe(0)
    expect(fetched.stderr).toMatch(new RegExp(`^From ${url}\\n {3}[0-9a-f]{7}\\.\\.[0-9a-f]{7} {2}main {7}-> origin/main\\n$`))
    expect((await git('status', { cwd })).stdout).toContain(
      "Your branch is behind 'origin/main' by 1 commit, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n",
    )
    const pulled = await git('pull', { cwd })
    expect(pulled).toMatchObject({ stderr: '', exitCode: 0 })
    expect(pulled.stdout).toMatch(/^Updating [0-9a-f]{7}\.\.[0-9a-f]{7}\nFast-forward\n$/)
    expect(await read('app/a.txt')).toBe('two\n')
    expect((await git('pull', { cwd })).stdout).toBe('Already up to date.\n')
    // Fetching never needed a token: the server only asks for one to push.
    expect(remotes.askToken).not.toHaveBeenCalled()
  })

  it('says a wrong token failed and keeps none; a rejected stored token is dropped; Cancel fails as git does', async () => {
    const url = await newRepository()
    const host = new URL(url).host
    const { remotes } = appRemotes(['wrong-token'])
    const { git } = await committedProject({ 'a.txt': 'a\n' }, { remotes })
    await git(`remote add origin ${url}`)
    expect(await git('push origin main')).toEqual({ stdout: '', stderr: `fatal: Authentication failed for '${url}'\n`, exitCode: 128 })
    expect(remotes.saveToken).not.toHaveBeenCalled()

    const stale = appRemotes([], { [host]: 'expired' })
    const second = await committedProject({ 'a.txt': 'a\n' }, { remotes: stale.remotes })
    await second.git(`remote add origin ${url}`)
    expect((await second.git('push origin main')).stderr).toBe(`fatal: Authentication failed for '${url}'\n`)
    expect(stale.tokens.has(host)).toBe(false)
    expect(stale.remotes.askToken).not.toHaveBeenCalled()

    const cancelled = appRemotes([undefined])
    const third = await committedProject({ 'a.txt': 'a\n' }, { remotes: cancelled.remotes })
    await third.git(`remote add origin ${url}`)
    expect(await third.git('push origin main')).toEqual({
      stdout: '',
      stderr: `fatal: could not read Password for '${url}': the token was not given\n`,
      exitCode: 128,
    })
  })

  it('explains an unreachable server and CORS, and leaves no directory behind after a failed clone', async () => {
    const { remotes } = appRemotes()
    const { git, exists } = gitProject({}, { remotes })
    const url = 'http://127.0.0.1:9/nothing.git'
    const result = await git(`clone ${url}`)
    expect(result.exitCode).toBe(128)
    expect(result.stderr).toContain(`Cloning into 'nothing'...\nfatal: unable to access '${url}': the request failed (`)
    expect(result.stderr).toContain('allows cross-origin (CORS) requests')
    expect(result.stderr).toContain('CORS proxy in Settings')
    expect(await exists('nothing')).toBe(false)

    const missing = await git(`clone ${server.url}/no-such-repo.git`)
    expect(missing.stderr).toContain(`fatal: repository '${server.url}/no-such-repo.git' not found\n`)
    expect(await exists('no-such-repo')).toBe(false)
  })

  it('only reaches HTTP(S) URLs, refuses a token written in the URL, and has no network without the app', async () => {
    const { remotes } = appRemotes()
    const { git } = gitProject({}, { remotes })
    expect((await git('clone file:///etc/repo')).stderr).toBe("fatal: unable to access 'file:///etc/repo': only http:// and https:// remotes can be reached from the browser\n")
    expect((await git('clone https://me:secret@example.com/r.git')).stderr).toBe(
      "fatal: unable to access 'https://example.com/r.git': put the token in Settings (or type it when asked), not in the URL\n",
    )
    const fetched = vi.fn(async () => new Response(''))
    vi.stubGlobal('fetch', fetched)
    try {
      const offline = gitProject()
      expect((await offline.git('clone http://127.0.0.1:9/r.git')).stderr).toBe("Cloning into 'r'...\nfatal: unable to access 'http://127.0.0.1:9/r.git': this workspace has no network\n")
      expect(fetched).not.toHaveBeenCalled()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('adds, lists and removes remotes', async () => {
    const { git } = await committedProject({ 'a.txt': 'a\n' })
    expect(await git('remote')).toEqual({ stdout: '', stderr: '', exitCode: 0 })
    await git('remote add origin https://example.com/a.git')
    await git('remote add upstream https://example.com/b.git')
    expect((await git('remote')).stdout).toBe('origin\nupstream\n')
    expect((await git('remote get-url upstream')).stdout).toBe('https://example.com/b.git\n')
    expect((await git('remote add origin https://example.com/c.git')).stderr).toBe('error: remote origin already exists.\n')
    await git('remote remove upstream')
    expect((await git('remote -v')).stdout).toBe('origin\thttps://example.com/a.git (fetch)\norigin\thttps://example.com/a.git (push)\n')
    expect(await git('remote remove nope')).toEqual({ stdout: '', stderr: "error: No such remote: 'nope'\n", exitCode: 2 })
  })

  it('goes through the CORS proxy set in Settings, and offers a token only for its own host', async () => {
    const url = await newRepository()
    const host = new URL(url).host
    // A proxy as isomorphic-git addresses one: `PROXY/host/path`, forwarded to `http://host/path`.
    const seen: { path: string; auth: boolean }[] = []
    const proxy = http.createServer((request, response) => {
      seen.push({ path: request.url ?? '', auth: request.headers.authorization !== undefined })
      const target = new URL(`http:/${request.url}`)
      const forwarded = http.request(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      request.pipe(forwarded)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const address = proxy.address() as { port: number }
      const { remotes } = appRemotes([DEFAULT_TOKEN], { 'other.example:443': 'not-for-this-host' })
      remotes.corsProxy.mockResolvedValue(`http://127.0.0.1:${address.port}` as never)
      const { git } = await committedProject({ 'a.txt': 'a\n' }, { remotes })
      await git(`remote add origin ${url}`)
      expect((await git('push origin main')).exitCode).toBe(0)
      // The other host's token was never offered: the user was asked for this one.
      expect(remotes.askToken).toHaveBeenCalledWith({ host, url }, expect.anything())
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.every((request) => request.path.startsWith(`/${host}/`))).toBe(true)
      // The first request carries no token: one is sent only once the server asked for it.
      expect(seen[0]).toEqual({ path: `/${host}/${url.split('/').at(-1)}/info/refs?service=git-receive-pack`, auth: false })
      expect(seen.some((request) => request.auth)).toBe(true)
      const checkout = await hostClone(url)
      expect(readFileSync(join(checkout, 'a.txt'), 'utf8')).toBe('a\n')
    } finally {
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  it('merges a diverged branch with a merge commit, and refuses a conflicting pull without changing anything', async () => {
    const url = await newRepository()
    const seed = await hostClone(url)
    writeFileSync(join(seed, 'a.txt'), 'one\n')
    await hostGit(seed, 'add', '.')
    await hostGit(seed, 'commit', '-qm', 'one')
    await hostGit(seed, 'push', '-q', withToken(url), 'main')
    const { remotes } = appRemotes()
    const { git, write, read } = gitProject({}, { remotes })
    await git(`clone ${url} app`)
    const cwd = '/workspace/app'
    await git(`config user.name "${TEST_IDENTITY.name}"`, { cwd })
    await git(`config user.email ${TEST_IDENTITY.email}`, { cwd })
    await write('app/mine.txt', 'mine\n')
    await git('add .', { cwd })
    await git('commit -m mine', { cwd })
    writeFileSync(join(seed, 'theirs.txt'), 'theirs\n')
    await hostGit(seed, 'add', '.')
    await hostGit(seed, 'commit', '-qm', 'theirs')
    await hostGit(seed, 'push', '-q', withToken(url), 'main')

    await git('fetch', { cwd })
    expect((await git('status', { cwd })).stdout).toContain(
      "Your branch and 'origin/main' have diverged,\nand have 1 and 1 different commits each, respectively.\n",
    )
    expect((await git('pull --ff-only', { cwd })).stderr).toBe('fatal: Not possible to fast-forward, aborting.\n')
    const merged = await git('pull', { cwd })
    expect(merged).toEqual({ stdout: "Merge made by the 'ort' strategy.\n", stderr: '', exitCode: 0 })
    expect(await read('app/theirs.txt')).toBe('theirs\n')
    expect((await git('status -sb', { cwd })).stdout).toBe('## main...origin/main [ahead 2]\n')

    // Both sides change the same line: the pull is refused and the branch stays where it was.
    await write('app/a.txt', 'mine\n')
    await git('commit -am "edit a"', { cwd })
    const before = (await git('rev-parse HEAD', { cwd })).stdout
    writeFileSync(join(seed, 'a.txt'), 'theirs\n')
    await hostGit(seed, 'commit', '-qam', 'their a')
    await hostGit(seed, 'push', '-q', withToken(url), 'main')
    const conflicted = await git('pull', { cwd })
    expect(conflicted.exitCode).toBe(128)
    expect(conflicted.stderr).toContain('error: The merge of origin/main conflicts in:\n\ta.txt\n')
    expect((await git('rev-parse HEAD', { cwd })).stdout).toBe(before)
    expect(await read('app/a.txt')).toBe('mine\n')
  })
})
