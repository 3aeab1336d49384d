import { describe, expect, it, vi } from 'vitest'
import type { ExecOptions, ExecResult } from '../workspace/workspace'
import { BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS, BASH_PREVIEW_CHARS, bashTool, parseShellCommands } from './bash'
import { makeToolContext, type ToolContextOptions } from './testing/tool-context'

type Exec = (command: string, options: ExecOptions) => Promise<ExecResult>

/** A tool context whose shell is `exec`, recording each call. */
function contextWith(exec: Exec, options: ToolContextOptions = {}) {
  const context = makeToolContext({ seed: { 'src/index.ts': '' }, ...options })
  const calls: Array<{ command: string; options: ExecOptions }> = []
  context.workspace.exec = (command, execOptions) => {
    calls.push({ command, options: execOptions })
    return exec(command, execOptions)
  }
  return { context, calls }
}

const done = (output: string, exitCode = 0): ExecResult => ({ exitCode, output, timedOut: false, aborted: false })

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe('bash', () => {
  it('streams output into the running part before the command ends', async () => {
    const release = gate()
    const { context } = contextWith(async (_command, options) => {
      options.onOutput?.('compiling…\n')
      await release.opened
      options.onOutput?.('done\n')
      return done('compiling…\ndone\n')
    })
    const running = bashTool.execute({ command: 'npm run build', description: 'Builds the app' }, context)
    await vi.waitFor(() => expect(context.updates.map((update) => update.metadata?.output)).toContain('compiling…\n'))
    expect(context.updates[0]).toEqual({ metadata: { output: '', description: 'Builds the app' } })
    release.open()
    const result = await running
    expect(result).toEqual({
      title: 'Builds the app',
      output: 'compiling…\ndone\n',
      metadata: { output: 'compiling…\ndone\n', exit: 0, description: 'Builds the app' },
    })
    expect(context.updates.at(-1)?.metadata?.output).toBe('compiling…\ndone\n')
  })

  it('throttles updates and keeps only the tail of a large output in the part', async () => {
    const chunk = (index: number) => `${String(index).padStart(4, '0')}${'x'.repeat(995)}\n`
    const full = Array.from({ length: 200 }, (_, index) => chunk(index)).join('')
    const { context } = contextWith(async (_command, options) => {
      for (let index = 0; index < 200; index++) options.onOutput?.(chunk(index))
      return done(full)
    })
    const result = await bashTool.execute({ command: 'cat big.log', description: 'Prints the log' }, context)
    // The first chunk at once, then at most one batched update before the final one.
    expect(context.updates.length).toBeLessThanOrEqual(4)
    for (const update of context.updates) expect(String(update.metadata?.output).length).toBeLessThanOrEqual(BASH_PREVIEW_CHARS)
    expect(context.updates.at(-1)?.metadata?.output).toBe(full.slice(-BASH_PREVIEW_CHARS))
    // The whole output goes to the result; the registry truncates it centrally.
    expect(result.output).toBe(full)
  })

  it('reports a failing exit code in the output and the metadata', async () => {
    const { context } = contextWith(async () => done('error TS2322: nope\n', 2))
    const result = await bashTool.execute({ command: 'npx tsc', description: 'Type checks' }, context)
    expect(result.output).toBe('error TS2322: nope\n\n\n<shell_metadata>\nCommand exited with code 2\n</shell_metadata>')
    expect(result.metadata).toMatchObject({ exit: 2, output: 'error TS2322: nope\n' })
  })

  it('shows a runtime’s notice on the card as it grows, and keeps it out of what the model reads', async () => {
    const { context } = contextWith(async (_command, options) => {
      options.onNotice?.('Loading Python (first use, 12 MB)…')
      options.onNotice?.(' 40%')
      options.onNotice?.(' done\n')
      options.onOutput?.('42\n')
      return done('42\n')
    })
    const result = await bashTool.execute({ command: 'python3 -c "print(6 * 7)"', description: 'Runs Python' }, context)
    expect(result.output).toBe('42\n')
    expect(result.metadata).toMatchObject({ output: '42\n', notice: 'Loading Python (first use, 12 MB)… 40% done' })
    expect(context.updates.some((update) => update.metadata?.notice === 'Loading Python (first use, 12 MB)…')).toBe(true)
  })

  it('says when a command printed nothing', async () => {
    const { context } = contextWith(async () => done(''))
    expect((await bashTool.execute({ command: 'true', description: 'Does nothing' }, context)).output).toBe('(no output)')
  })

  it('runs with a 2 minute timeout by default, at most 10 minutes, in the workdir', async () => {
    const { context, calls } = contextWith(async () => done('ok'))
    await bashTool.execute({ command: 'ls', description: 'Lists files' }, context)
    await bashTool.execute({ command: 'ls', description: 'Lists files', timeout: 3_600_000, workdir: 'src' }, context)
    expect(calls.map((call) => [call.options.timeout, call.options.cwd, call.options.signal])).toEqual([
      [BASH_DEFAULT_TIMEOUT_MS, '/workspace', context.abort],
      [BASH_MAX_TIMEOUT_MS, '/workspace/src', context.abort],
    ])
  })

  it('tells the model the command was stopped after its timeout', async () => {
    const { context } = contextWith(async (_command, options) => {
      options.onOutput?.('waiting…\n')
      return { exitCode: 124, output: 'waiting…\n', timedOut: true, aborted: false }
    })
    const result = await bashTool.execute({ command: 'npm run dev', description: 'Starts the dev server', timeout: 5000 }, context)
    expect(result.output).toBe(
      'waiting…\n\n\n<shell_metadata>\nbash tool terminated command after exceeding timeout 5000 ms. If this command is ' +
        'expected to take longer and is not waiting for interactive input, retry with a larger timeout value in ' +
        'milliseconds.\n</shell_metadata>',
    )
    expect(result.metadata).toMatchObject({ exit: 124, timedOut: true })
  })

  it('stops the command when the turn is aborted and keeps what it printed', async () => {
    const { context, calls } = contextWith(
      (_command, options) =>
        new Promise((resolve) => {
          options.onOutput?.('partial\n')
          options.signal?.addEventListener('abort', () => resolve({ exitCode: 130, output: 'partial\n', timedOut: false, aborted: true }))
        }),
    )
    const running = bashTool.execute({ command: 'npm test -- --watch', description: 'Runs tests' }, context)
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    context.controller.abort()
    const result = await running
    expect(result.output).toBe('partial\n\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>')
    // opencode's shape: the note in the output says it was stopped; the metadata is the command's, with no flag of ours.
    expect(result.metadata).toMatchObject({ output: 'partial\n', exit: 130, description: 'Runs tests' })
    expect(result.metadata).not.toHaveProperty('interrupted')
    expect(context.updates.at(-1)?.metadata?.output).toContain('partial\n')
  })

  it('asks bash with each command and remembers its arity prefix for "always"', async () => {
    const { context } = contextWith(async () => done(''), { seed: { 'src/index.ts': '', 'package.json': JSON.stringify({ scripts: { dev: 'vite', test: 'vitest' } }) } })
    await bashTool.execute(
      { command: 'cd src && git status && npm run dev -- --port 3000 | tee log.txt; FOO=1 npm test', description: 'Runs things' },
      context,
    )
    expect(context.asks).toEqual([
      {
        permission: 'bash',
        patterns: ['git status', 'npm run dev -- --port 3000', 'tee log.txt', 'FOO=1 npm test'],
        always: ['git status *', 'npm run dev *', 'tee *', 'npm test *'],
        metadata: {
          command: 'cd src && git status && npm run dev -- --port 3000 | tee log.txt; FOO=1 npm test',
          description: 'Runs things',
        },
      },
      {
        permission: 'webcontainer',
        patterns: ['npm'],
        always: ['*'],
        metadata: { command: 'cd src && git status && npm run dev -- --port 3000 | tee log.txt; FOO=1 npm test', program: 'npm' },
      },
    ])
  })

  it('asks before a command would start WebContainer, whose commands reach the network, and not once it runs', async () => {
    const offline = contextWith(async () => done(''))
    await bashTool.execute({ command: 'echo hi && npx -y leftpad', description: 'Runs npx' }, offline.context)
    expect(offline.context.asks.map((ask) => [ask.permission, ask.patterns])).toEqual([
      ['bash', ['echo hi', 'npx -y leftpad']],
      ['webcontainer', ['npx']],
    ])
    const plain = contextWith(async () => done(''))
    await bashTool.execute({ command: 'node main.js && python3 x.py', description: 'Runs node' }, plain.context)
    expect(plain.context.asks.map((ask) => ask.permission)).toEqual(['bash'])
    // An npm script whose commands the offline workspace has runs there: nothing asks to start WebContainer.
    const script = contextWith(async () => done(''), { seed: { 'package.json': JSON.stringify({ scripts: { test: 'node test.js' } }) } })
    await bashTool.execute({ command: 'npm test', description: 'Tests' }, script.context)
    expect(script.context.asks.map((ask) => ask.permission)).toEqual(['bash'])
    const refused = contextWith(async () => done(''), {
      answer: (request) => {
        if (request.permission === 'webcontainer') throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    await expect(bashTool.execute({ command: 'npm install', description: 'Installs' }, refused.context)).rejects.toThrow('rejected')
    expect(refused.calls).toHaveLength(0)
    const running = contextWith(async () => done(''))
    Object.defineProperty(running.context.workspace, 'backend', { value: 'webcontainer' })
    await bashTool.execute({ command: 'npm install', description: 'Installs' }, running.context)
    expect(running.context.asks.map((ask) => ask.permission)).toEqual(['bash'])
  })

  it('asks external_directory first for paths outside the project', async () => {
    const { context } = contextWith(async () => done(''))
    await bashTool.execute({ command: 'rm -rf /tmp/cache && cat ../secret.txt > out.txt && echo x > /etc/hosts', description: 'Cleans' }, context)
    expect(context.asks.map((ask) => [ask.permission, ask.patterns, ask.always])).toEqual([
      ['external_directory', ['/tmp/*', '/*', '/etc/*'], ['/tmp/*', '/*', '/etc/*']],
      ['bash', ['rm -rf /tmp/cache', 'cat ../secret.txt', 'echo x'], ['rm *', 'cat *', 'echo *']],
    ])
  })

  it('asks nothing of external_directory for paths inside the project', async () => {
    const { context } = contextWith(async () => done(''))
    await bashTool.execute({ command: 'mkdir -p build/out && cp src/index.ts build/ && rm ./tmp.txt', description: 'Copies' }, context)
    expect(context.asks.map((ask) => ask.permission)).toEqual(['bash'])
  })

  it('runs nothing when permission is refused', async () => {
    const { context, calls } = contextWith(async () => done(''), {
      answer: () => {
        throw new Error('The user rejected permission to use this specific tool call.')
      },
    })
    await expect(bashTool.execute({ command: 'rm -rf src', description: 'Deletes src' }, context)).rejects.toThrow('rejected')
    expect(calls).toHaveLength(0)
  })
})

describe('reading a command line', () => {
  const texts = async (line: string) => (await parseShellCommands(line)).map((command) => command.text)

  it('splits on operators outside quotes', async () => {
    expect(await texts('git commit -m "a && b; c" && git push')).toEqual(['git commit -m "a && b; c"', 'git push'])
    expect(await texts("echo 'x | y' | wc -l")).toEqual(["echo 'x | y'", 'wc -l'])
  })

  it('finds commands inside substitutions, groups and compound commands', async () => {
    expect(await texts('echo $(rm -rf x) `whoami`')).toEqual(['rm -rf x', 'whoami', 'echo $(rm -rf x) `whoami`'])
    expect(await texts('(cd app && npm ci) || exit 1')).toEqual(['cd app', 'npm ci', 'exit 1'])
    expect(await texts('if [ -f a ]; then rm a; else touch a; fi')).toEqual(['rm a', 'touch a'])
    expect(await texts('for f in *.ts; do wc -l "$f"; done')).toEqual(['wc -l "$f"'])
  })

  it('leaves out redirections, comments and here-document bodies', async () => {
    expect(await parseShellCommands('npm test > out.log 2>&1 # quiet')).toEqual([
      { text: 'npm test', tokens: ['npm', 'test'], words: ['npm', 'test'], writes: ['out.log'] },
    ])
    expect(await texts("cat <<'EOF' > notes.md\nrm -rf /\nEOF\nls")).toEqual(['cat', 'ls'])
    expect((await parseShellCommands('npm run build \\\n  --watch'))[0]?.tokens).toEqual(['npm', 'run', 'build', '--watch'])
  })

  it('keeps words whole and unquotes them', async () => {
    const [command] = await parseShellCommands('NODE_ENV=production node "my script.js" --flag=\'a b\'')
    expect(command).toEqual({
      text: 'NODE_ENV=production node "my script.js" --flag=\'a b\'',
      tokens: ['node', '"my script.js"', "--flag='a b'"],
      words: ['node', 'my script.js', '--flag=a b'],
      writes: [],
    })
  })
})
