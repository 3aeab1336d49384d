import { describe, expect, it } from 'vitest'
import type { ProgramRequest } from '../runtime/program'
import { ensureInstalled, parsePipArgs, runPipCommand, type PipStore } from './pip'
import type { InstallResult } from './wheel-store'
import { normalizeName, type Wheel } from './wheels'

/** The installed set without downloads: `failure` makes every install fail as the store would say. */
function fakeStore(failure?: string): PipStore & { installs: string[][] } {
  const installed = new Map<string, Wheel>()
  return {
    installs: [],
    list: () => [...installed.values()],
    has: (name) => installed.has(normalizeName(name)),
    async remove(name) {
      const wheel = installed.get(normalizeName(name))
      installed.delete(normalizeName(name))
      return wheel
    },
    restore: async () => undefined,
    async install(wheels, onProgress): Promise<InstallResult> {
      this.installs.push(wheels.map((wheel) => wheel.name))
      if (failure) return { type: 'failed', message: failure }
      onProgress('Downloading … done\n')
      for (const wheel of wheels) installed.set(normalizeName(wheel.name), wheel)
      return { type: 'installed', wheels: [...wheels] }
    },
  }
}

async function pip(store: PipStore, args: string[], files: Record<string, string> = {}) {
  let stdout = ''
  let stderr = ''
  const request = {
    argv: ['pip', ...args],
    cwd: '/workspace',
    files: { readText: async (path: string) => files[path] ?? Promise.reject(new Error('ENOENT')) },
    onStdout: (text: string) => (stdout += text),
    onStderr: (text: string) => (stderr += text),
  } as unknown as ProgramRequest
  const { exitCode } = await runPipCommand(store, 'pip', args, request)
  return { exitCode, stdout, stderr }
}

describe('parsePipArgs', () => {
  it('reads the subcommands and their options as pip does', () => {
    expect(parsePipArgs(['install', '-U', '--index-url', 'https://x', 'pytest', '-r', 'req.txt', '-q'])).toEqual({ kind: 'install', requirements: ['pytest'], files: ['req.txt'], quiet: true, dependencies: true })
    expect(parsePipArgs(['--version'])).toEqual({ kind: 'version' })
    expect(parsePipArgs([])).toEqual({ kind: 'help' })
    expect(parsePipArgs(['uninstall', '-y', 'pytest'])).toEqual({ kind: 'uninstall', names: ['pytest'] })
    expect(parsePipArgs(['install', '--frobnicate', 'x'])).toEqual({ kind: 'usage', message: 'ERROR: no such option: --frobnicate', exitCode: 2 })
    expect(parsePipArgs(['install'])).toMatchObject({ kind: 'usage', exitCode: 1 })
    expect(parsePipArgs(['download', 'x'])).toMatchObject({ kind: 'usage', message: expect.stringContaining('unknown command "download"') })
  })
})

describe('pip', () => {
  it('installs a package of the set with its dependencies, and then lists, shows and uninstalls it', async () => {
    const store = fakeStore()
    const installed = await pip(store, ['install', 'pytest'])
    expect(installed.exitCode).toBe(0)
    expect(installed.stdout).toContain('Successfully installed iniconfig-2.3.0 packaging-26.3 pluggy-1.6.0 pygments-2.21.0 pytest-9.1.1\n')
    expect(store.installs).toEqual([['iniconfig', 'packaging', 'pluggy', 'pygments', 'pytest']])

    const again = await pip(store, ['install', 'pytest==9.1.1'])
    expect(again).toMatchObject({ exitCode: 0, stdout: 'Requirement already satisfied: pytest==9.1.1 in /lib/python3.14/site-packages (9.1.1)\n' })
    expect(store.installs).toHaveLength(1)

    expect((await pip(store, ['list'])).stdout).toContain('pytest    9.1.1\n')
    expect((await pip(store, ['freeze'])).stdout).toBe('iniconfig==2.3.0\npackaging==26.3\npluggy==1.6.0\npygments==2.21.0\npytest==9.1.1\n')
    const shown = await pip(store, ['show', 'pluggy'])
    expect(shown.stdout).toContain('Version: 1.6.0\nLocation: /lib/python3.14/site-packages\nRequires: \nRequired-by: pytest\n')

    expect((await pip(store, ['uninstall', '-y', 'pytest'])).stdout).toContain('Successfully uninstalled pytest-9.1.1')
    expect(store.has('pytest')).toBe(false)
    expect(await pip(store, ['show', 'pytest'])).toMatchObject({ exitCode: 1, stderr: 'WARNING: Package(s) not found: pytest\n' })
  })

  it('says what it cannot install and why, and installs nothing of that command', async () => {
    const store = fakeStore()
    const unknown = await pip(store, ['install', 'pytest', 'requests'])
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toBe(
      "ERROR: requests is not in tabcode's offline set (pytest, pluggy, iniconfig, packaging, pygments); installing from PyPI needs the network, which programs here do not have.\n",
    )
    expect(store.installs).toEqual([])
    expect((await pip(store, ['install', 'pytest==8.3.0'])).stderr).toContain("tabcode's offline set has pytest 9.1.1 only, not pytest==8.3.0")
    expect((await pip(store, ['install', '.'])).stderr).toContain('cannot install .: installing a local project')
    expect((await pip(store, ['install', '-r', 'missing.txt'])).stderr).toContain("Could not open requirements file: [Errno 2] No such file or directory: 'missing.txt'")
  })

  it('reads requirements files relative to the working directory', async () => {
    const store = fakeStore()
    const result = await pip(store, ['install', '-r', 'requirements.txt'], { '/workspace/requirements.txt': 'pluggy==1.6.0\n# comment\niniconfig\n' })
    expect(result.stdout).toContain('Successfully installed iniconfig-2.3.0 pluggy-1.6.0\n')
  })

  it('passes on why a build cannot install (no wheels in it, offline before they were cached)', async () => {
    const store = fakeStore('this build of tabcode has no offline Python packages (python3 was not found)')
    const result = await pip(store, ['install', 'pytest'])
    expect(result).toMatchObject({ exitCode: 1 })
    expect(result.stderr).toBe(
      'ERROR: this build of tabcode has no offline Python packages (python3 was not found); installing from PyPI needs the network, which programs here do not have.\n',
    )
  })

  it('installs pytest on first use only', async () => {
    const store = fakeStore()
    let stderr = ''
    expect(await ensureInstalled(store, 'pytest', { onStderr: (text) => (stderr += text) })).toBeUndefined()
    expect(await ensureInstalled(store, 'pytest', { onStderr: (text) => (stderr += text) })).toBeUndefined()
    expect(store.installs).toHaveLength(1)
    expect(stderr).toBe('Downloading … done\n')
    expect(await ensureInstalled(fakeStore('offline'), 'pytest', { onStderr: () => undefined })).toContain('pytest is not installed and could not be installed: offline')
  })
})
