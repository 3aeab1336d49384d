import { describe, expect, it, vi } from 'vitest'
import { createMemoryWorkspace } from '../workspace/local/testing/memory-workspace'
import { parseShellCommands } from '../tools/bash'
import { onDemandWebContainer, webContainerProgram } from '../workspace/on-demand'
import type { ExecResult, Workspace } from '../workspace/workspace'

/** The programs of a line, by the shell's parser (as the worker wires it). */
const leadingWords = async (command: string) => (await parseShellCommands(command)).map((entry) => entry.words[0] ?? '')

const done = (output: string, exitCode = 0): ExecResult => ({ exitCode, output, timedOut: false, aborted: false })

function fakeContainer(): Workspace & { commands: string[] } {
  const commands: string[] = []
  return Object.assign(createMemoryWorkspace(), {
    commands,
    exec: async (command: string) => {
      commands.push(command)
      return done('added 1 package\n')
    },
  })
}

describe('WebContainer on demand', () => {
  it('spots the package managers among the programs of a line, whatever their path', async () => {
    expect(webContainerProgram(await leadingWords('ls && NODE_ENV=test npm install'))).toBe('npm')
    expect(webContainerProgram(await leadingWords('cd app; ./node_modules/.bin/npx vite'))).toBe('npx')
    expect(webContainerProgram(await leadingWords('echo npm is great | grep npm'))).toBeUndefined()
    expect(webContainerProgram(await leadingWords('python3 -m unittest && git status'))).toBeUndefined()
  })

  it('runs a command without Node or npm offline and never asks for WebContainer', async () => {
    const want = vi.fn()
    const local = createMemoryWorkspace({ 'a.txt': 'hi' })
    const exec = vi.spyOn(local, 'exec').mockResolvedValue(done('hi'))
    const workspace = onDemandWebContainer(local, { programs: leadingWords, want })
    expect((await workspace.exec('cat a.txt', {})).output).toBe('hi')
    expect(want).not.toHaveBeenCalled()
    expect(exec).toHaveBeenCalledOnce()
    // Everything but exec is the offline workspace itself.
    expect(await workspace.readText('a.txt')).toBe('hi')
  })

  it('runs an npm script offline when its commands are the offline workspace’s, and one that needs a package in WebContainer', async () => {
    const container = fakeContainer()
    const want = vi.fn(async () => ({ workspace: container }))
    const local = createMemoryWorkspace({ 'package.json': JSON.stringify({ scripts: { test: 'node test.js', lint: 'eslint .' } }) })
    const exec = vi.spyOn(local, 'exec').mockResolvedValue(done('ok\n'))
    const workspace = onDemandWebContainer(local, { programs: leadingWords, want })
    expect((await workspace.exec('npm test', {})).output).toBe('ok\n')
    expect(want).not.toHaveBeenCalled()
    expect(exec).toHaveBeenCalledOnce()
    expect((await workspace.exec('npm run lint', {})).output).toBe('added 1 package\n')
    expect(want).toHaveBeenCalledOnce()
  })

  it('hands npm to WebContainer once it is up, saying why it was wanted', async () => {
    const container = fakeContainer()
    const want = vi.fn(async () => ({ workspace: container }))
    const workspace = onDemandWebContainer(createMemoryWorkspace(), { programs: leadingWords, want })
    expect((await workspace.exec('npm install left-pad', {})).output).toBe('added 1 package\n')
    expect(container.commands).toEqual(['npm install left-pad'])
    expect(want).toHaveBeenCalledWith(expect.stringContaining('`npm` needs Node.js and npm'))
  })

  it('answers offline, with the reason WebContainer could not take it, when it is unavailable', async () => {
    const local = createMemoryWorkspace()
    vi.spyOn(local, 'exec').mockResolvedValue(done('npm: needs WebContainer\n', 127))
    const streamed: string[] = []
    const workspace = onDemandWebContainer(local, {
      programs: leadingWords,
      want: async () => ({ unavailable: 'it is turned off in Settings (offline workspace only).' }),
    })
    const result = await workspace.exec('npm install', { onOutput: (chunk) => streamed.push(chunk) })
    expect(result.exitCode).toBe(127)
    expect(result.output).toBe('WebContainer is not available: it is turned off in Settings (offline workspace only).\nnpm: needs WebContainer\n')
    expect(streamed[0]).toMatch(/^WebContainer is not available/)
  })
})
