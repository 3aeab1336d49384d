import { describe, expect, it } from 'vitest'
import type { Program } from '../runtime/program'
import { createMemoryWorkspace } from '../local/testing/memory-workspace'
import { npmLineRunsOffline } from './npm-command'
import { runShell } from './run'

/** `node` as a stand-in: prints its argv and the npm variables a script sees, and fails when told to. */
const node: Program = async (request) => {
  request.onStdout(`node ${request.argv.slice(1).join(' ')} [${request.env.npm_lifecycle_event}] cwd=${request.cwd}\n`)
  return { exitCode: request.argv.includes('fail') ? 3 : 0 }
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'demo', version: '1.0.0', scripts, ...extra })

async function npm(line: string, files: Record<string, string>, cwd = '/workspace') {
  const fs = createMemoryWorkspace(files)
  return { ...(await runShell(line, { fs, cwd, programs: { node } })), fs }
}

describe('npm scripts in the offline shell', () => {
  it('runs npm test: pretest, test with its banner, posttest, in the package directory with npm_lifecycle_event', async () => {
    const { output, exitCode } = await npm('npm test', {
      'package.json': pkg({ pretest: 'echo before', test: 'node test.js', posttest: 'echo "after $npm_lifecycle_event"' }),
    })
    expect(exitCode).toBe(0)
    expect(output).toBe(
      '\n> demo@1.0.0 pretest\n> echo before\n\nbefore\n' +
        '\n> demo@1.0.0 test\n> node test.js\n\nnode test.js [test] cwd=/workspace\n' +
        '\n> demo@1.0.0 posttest\n> echo "after $npm_lifecycle_event"\n\nafter posttest\n',
    )
  })

  it('passes the arguments after -- to the main script only, quoted for sh', async () => {
    const { output } = await npm('npm run check -- --grep "a b" x', {
      'package.json': pkg({ precheck: 'echo pre "$@"', check: 'node check.js', postcheck: 'echo post' }),
    })
    expect(output).toContain("> node check.js --grep 'a b' x\n")
    expect(output).toContain('node check.js --grep a b x [check]')
    expect(output).toContain('\npre\n')
  })

  it('finds package.json above the cwd and runs the script where it is', async () => {
    const { output } = await npm('npm start', { 'package.json': pkg({ start: 'node server.js' }), 'src/x.js': '' }, '/workspace/src')
    expect(output).toContain('node server.js [start] cwd=/workspace\n')
  })

  it('stops at the first failing script with npm’s error and the script’s exit code; -s drops the banners', async () => {
    const { output } = await npm('npm test -s; echo "status $?"', {
      'package.json': pkg({ test: 'node t.js fail', posttest: 'echo never' }),
    })
    expect(output).toBe('node t.js fail [test] cwd=/workspace\nstatus 3\n')
    const loud = await npm('npm test', { 'package.json': pkg({ test: 'node t.js fail' }) })
    expect(loud.exitCode).toBe(3)
    expect(loud.output).toContain('npm error code 3\nnpm error path /workspace\nnpm error command failed\nnpm error command sh -c node t.js fail\n')
  })

  it('says a script is missing as npm does, exit 1; --if-present skips it; npm run lists the scripts', async () => {
    const files = { 'package.json': pkg({ test: 'node test.js', build: 'tsc' }) }
    expect(await npm('npm run lint', files)).toMatchObject({
      exitCode: 1,
      output: 'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n',
    })
    expect(await npm('npm run lint --if-present', files)).toMatchObject({ exitCode: 0, output: '' })
    expect((await npm('npm run', files)).output).toBe(
      'Lifecycle scripts included in demo@1.0.0:\n  test\n    node test.js\n\navailable via `npm run-script`:\n  build\n    tsc\n',
    )
  })

  it('runs a script that runs another script, and a node_modules/.bin command with node', async () => {
    const { output } = await npm('npm run all', {
      'package.json': pkg({ all: 'npm run one && hello world', one: 'echo one' }),
      'node_modules/.bin/hello': '#!/usr/bin/env node\nconsole.log("hi")\n',
    })
    expect(output).toContain('one\n')
    expect(output).toContain('node /workspace/node_modules/.bin/hello world [all]')
  })

  it('refuses a script that needs a command the offline workspace lacks, naming it', async () => {
    const { output, exitCode } = await npm('npm test', { 'package.json': pkg({ test: 'jest --ci' }) })
    expect(exitCode).toBe(127)
    expect(output).toBe('npm: the "test" script needs `jest`, which the offline workspace does not have; it runs in WebContainer\n')
    expect((await npm('npm install left-pad', {})).output).toContain('`npm install left-pad` needs WebContainer')
  })

  it('says when there is no package.json or it is not JSON', async () => {
    expect(await npm('npm test', {})).toMatchObject({ exitCode: 254, output: expect.stringContaining('npm error enoent Could not read package.json') })
    expect(await npm('npm test', { 'package.json': '{ nope' })).toMatchObject({ exitCode: 1, output: expect.stringContaining('npm error code EJSONPARSE') })
  })
})

describe('which npm lines stay offline', () => {
  const files = createMemoryWorkspace({
    'package.json': pkg({ test: 'node test.js && python -m unittest', lint: 'eslint .', build: 'tsc', both: 'npm test && npm run lint', shell: 'f() { echo hi; }; f | wc -l' }),
    'app/package.json': pkg({ test: 'vitest' }),
    'tools/package.json': pkg({ build: 'tsc' }),
    'tools/node_modules/.bin/tsc': '#!/usr/bin/env node\n',
  })
  const offline = (line: string, cwd = '/workspace') => npmLineRunsOffline(line, cwd, files)

  it('keeps scripts of node, python, the shell’s commands and present bins offline', async () => {
    expect(await offline('npm test')).toBe(true)
    expect(await offline('npm run shell')).toBe(true)
    expect(await offline('npm run')).toBe(true)
    expect(await offline('npm run nothing-like-it')).toBe(true)
    expect(await offline('cd tools && npm run build')).toBe(true)
  })

  it('sends anything else to WebContainer: a package’s command, a script that runs one, install, npx', async () => {
    expect(await offline('npm run lint')).toBe(false)
    expect(await offline('npm run build')).toBe(false)
    expect(await offline('npm run both')).toBe(false)
    expect(await offline('cd app && npm test')).toBe(false)
    expect(await offline('npm test', '/workspace/app')).toBe(false)
    expect(await offline('npm install')).toBe(false)
    expect(await offline('npm test --workspace=app')).toBe(false)
    expect(await offline('npm run "$TARGET"')).toBe(false)
  })
})
