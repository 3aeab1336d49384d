import { describe, expect, it } from 'vitest'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { findPackage, parseNpmArguments, quoteArgument, scriptEnvironment, scriptsToRun, type PackageScripts } from './npm-scripts'

describe('npm’s arguments', () => {
  it('reads the commands that run a script, with their aliases, options and arguments', () => {
    expect(parseNpmArguments(['test'])).toEqual({ type: 'run', event: 'test', args: [], ifPresent: false, silent: false })
    expect(parseNpmArguments(['t', '--', '--watch'])).toMatchObject({ event: 'test', args: ['--watch'] })
    expect(parseNpmArguments(['-s', 'run-script', 'build', 'prod', '--', '-x'])).toMatchObject({ event: 'build', args: ['prod', '-x'], silent: true })
    expect(parseNpmArguments(['run', 'lint', '--if-present'])).toMatchObject({ event: 'lint', ifPresent: true })
    expect(parseNpmArguments(['start'])).toMatchObject({ event: 'start' })
    expect(parseNpmArguments(['run'])).toEqual({ type: 'list', silent: false })
  })

  it('leaves everything else to WebContainer’s npm: installs, exec, options it does not model', () => {
    for (const words of [[], ['install'], ['ci'], ['exec', 'x'], ['run', 'build', '--workspace=app'], ['--prefix', 'app', 'test'], ['restart']]) {
      expect(parseNpmArguments(words)).toEqual({ type: 'other' })
    }
  })
})

describe('a run’s scripts', () => {
  const pkg: PackageScripts = {
    directory: '/workspace/app',
    id: 'app@2.0.0',
    name: 'app',
    version: '2.0.0',
    scripts: { prebuild: 'rm -rf dist', build: 'node build.js', postbuild: 'echo done' },
  }

  it('runs pre and post around the main script, which alone gets the arguments, quoted for sh', () => {
    expect(scriptsToRun(pkg, 'build', ['--out', "it's here", 'a*b'])).toEqual([
      { event: 'prebuild', script: 'rm -rf dist' },
      { event: 'build', script: "node build.js --out 'it'\\''s here' 'a*b'" },
      { event: 'postbuild', script: 'echo done' },
    ])
    expect(scriptsToRun(pkg, 'test', [])).toEqual([])
    expect(quoteArgument('--grep=a/b.c')).toBe('--grep=a/b.c')
    expect(quoteArgument('')).toBe("''")
  })

  it('gives the script npm’s variables and every node_modules/.bin up from the package first on PATH', () => {
    const env = scriptEnvironment(pkg, 'postbuild', 'echo done', { PATH: '/usr/bin' }, '/workspace/app/src')
    expect(env).toMatchObject({ npm_lifecycle_event: 'postbuild', npm_lifecycle_script: 'echo done', npm_package_name: 'app', npm_package_version: '2.0.0', INIT_CWD: '/workspace/app/src' })
    expect(env.PATH).toBe('/workspace/app/node_modules/.bin:/workspace/node_modules/.bin:/node_modules/.bin:/usr/bin')
  })

  it('finds the nearest package.json, and says when it is not JSON', async () => {
    const files = createMemoryWorkspace({ 'package.json': '{"name":"root"}', 'app/package.json': '{"scripts":{"test":"node t.js","bad":3}}', 'broken/package.json': '{' })
    expect(await findPackage(files, '/workspace/app/src')).toMatchObject({ type: 'found', package: { directory: '/workspace/app', id: undefined, scripts: { test: 'node t.js' } } })
    expect(await findPackage(files, '/workspace/docs')).toMatchObject({ type: 'found', package: { directory: '/workspace', id: 'root' } })
    expect(await findPackage(files, '/workspace/broken')).toMatchObject({ type: 'invalid', path: '/workspace/broken/package.json' })
    expect(await findPackage(createMemoryWorkspace({}), '/workspace')).toEqual({ type: 'missing' })
  })
})
