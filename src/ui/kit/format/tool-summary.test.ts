import { describe, expect, it } from 'vitest'
import { PermissionDeniedError } from '../../../core/permission/errors'
import type { ToolState } from '../../../core/schema'
import {
  commandDownload,
  commandEnding,
  ENDING_CHARS,
  commandOf,
  commandRuntime,
  describeChange,
  describeLines,
  failedExit,
  isInterrupted,
  lineCount,
  readContent,
  toolChange,
  toolDuration,
  toolOutput,
  toolSubject,
  toolErrorText,
} from './tool-summary'

describe('commandDownload', () => {
  const running = (metadata: Record<string, unknown>): ToolState => ({ status: 'running', input: {}, metadata, time: { start: 1 } })
  it("reads a running command's runtime download, and nothing else", () => {
    expect(commandDownload(running({ download: { what: 'Python', loaded: 3, total: 12 } }))).toEqual({ what: 'Python', loaded: 3, total: 12 })
    expect(commandDownload(running({ download: { what: 'Python', loaded: 30, total: 12 } }))).toEqual({ what: 'Python', loaded: 12, total: 12 })
    expect(commandDownload(running({}))).toBeUndefined()
    expect(commandDownload(running({ download: { what: 'Python', loaded: '3', total: 12 } }))).toBeUndefined()
    expect(commandDownload(running({ download: { what: 'Python', loaded: 1, total: 0 } }))).toBeUndefined()
    expect(commandDownload({ status: 'completed', input: {}, output: '', title: '', metadata: { download: { what: 'Python', loaded: 3, total: 12 } }, time: { start: 1, end: 2 } })).toBeUndefined()
  })
})

describe('commandRuntime', () => {
  it('names the runtime that served a finished command, and nothing for calls that did not record one', () => {
    const finished = (metadata: Record<string, unknown>) =>
      ({ status: 'completed', input: {}, output: '', title: '', metadata, time: { start: 1, end: 2 } }) as const
    expect(commandRuntime(finished({ runtime: 'offline' }))?.label).toBe('ran offline')
    expect(commandRuntime(finished({ runtime: 'webcontainer' }))?.label).toBe('ran in WebContainer')
    expect(commandRuntime(finished({}))).toBeUndefined()
    expect(commandRuntime({ status: 'running', input: {}, time: { start: 1 } } as never)).toBeUndefined()
  })
})

describe('toolSubject', () => {
  it('prefers the title the tool reported', () => {
    const state: ToolState = { status: 'running', input: { command: 'ls' }, title: 'List files', time: { start: 1 } }
    expect(toolSubject('list', state)).toBe('List files')
  })

  it('falls back to the most telling input, first line only, shortened', () => {
    expect(toolSubject('read', { status: 'pending', input: { filePath: 'src/a.ts', other: 1 }, raw: '' })).toBe('src/a.ts')
    expect(toolSubject('read', { status: 'pending', input: { command: 'echo one\necho two' }, raw: '' })).toBe('echo one')
    const long = 'x'.repeat(300)
    expect(toolSubject('read', { status: 'pending', input: { query: long }, raw: '' })).toHaveLength(120)
    expect(toolSubject('read', { status: 'pending', input: {}, raw: '' })).toBeUndefined()
  })
})

describe('the subject of calls whose title misleads', () => {
  const done = (tool: string, input: Record<string, unknown>, title: string) =>
    toolSubject(tool, { status: 'completed', input, output: '', title, metadata: {}, time: { start: 0, end: 1 } })

  it('names the pattern a glob or grep looked for, and where when it was not the project', () => {
    expect(done('glob', { pattern: '**/*.js' }, '.')).toBe('**/*.js')
    expect(done('glob', { pattern: '*.ts', path: 'src' }, 'src')).toBe('*.ts in src')
    expect(done('grep', { pattern: 'TODO', include: '*.ts', path: '.' }, 'TODO')).toBe('TODO (*.ts)')
  })

  it('counts the todos and how many are done, not only the open ones', () => {
    const todo = (status: string) => ({ content: 'x', status, priority: 'medium' })
    expect(done('todowrite', { todos: [todo('completed'), todo('completed'), todo('completed')] }, '0 todos')).toBe('3 todos, all done')
    expect(done('todowrite', { todos: [todo('completed'), todo('pending')] }, '1 todo')).toBe('2 todos, 1 done')
    expect(done('todowrite', { todos: [todo('in_progress')] }, '1 todo')).toBe('1 todo')
    expect(done('todowrite', { todos: [] }, '0 todos')).toBe('No todos')
  })
})

describe('toolDuration and toolOutput', () => {
  it('measures finished calls only', () => {
    expect(toolDuration({ status: 'completed', input: {}, output: '', title: '', metadata: {}, time: { start: 10, end: 250 } })).toBe(240)
    expect(toolDuration({ status: 'running', input: {}, time: { start: 10 } })).toBeUndefined()
  })

  it('shows results, partial output of failures and streaming output while running', () => {
    expect(
      toolOutput({ status: 'completed', input: {}, output: 'done', title: '', metadata: {}, time: { start: 0, end: 1 } }),
    ).toEqual({ label: 'Output', text: 'done' })
    expect(
      toolOutput({ status: 'error', input: {}, error: 'x', metadata: { output: 'half' }, time: { start: 0, end: 1 } }),
    ).toEqual({ label: 'Partial output', text: 'half' })
    expect(toolOutput({ status: 'error', input: {}, error: 'x', time: { start: 0, end: 1 } })).toBeUndefined()
    expect(toolOutput({ status: 'running', input: {}, metadata: { output: 'so far' }, time: { start: 0 } })).toEqual({
      label: 'Output so far',
      text: 'so far',
    })
    expect(toolOutput({ status: 'pending', input: {}, raw: '' })).toBeUndefined()
  })

  it('knows interrupted calls and counts lines', () => {
    expect(isInterrupted({ status: 'error', input: {}, error: 'aborted', metadata: { interrupted: true }, time: { start: 0, end: 1 } })).toBe(true)
    expect(isInterrupted({ status: 'error', input: {}, error: 'failed', time: { start: 0, end: 1 } })).toBe(false)
    // A stopped command keeps its own result (completed, exit 130) in opencode's shape, its note saying the user
    // stopped it: still interrupted, and not shown as a failure.
    const note = '\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>'
    const stopped = { status: 'completed', input: {}, output: `so far${note}`, title: 't', metadata: { output: 'so far', exit: 130 }, time: { start: 0, end: 1 } } as const
    expect(isInterrupted(stopped)).toBe(true)
    expect(failedExit(stopped)).toBeUndefined()
    // Rows stored before then carry a flag of ours instead: they read the same.
    const flagged = { ...stopped, output: 'so far', metadata: { exit: 130, interrupted: true } } as const
    expect(isInterrupted(flagged)).toBe(true)
    expect(failedExit(flagged)).toBeUndefined()
    // A command that failed on its own, or ran out of time, was not stopped.
    const failed = { ...stopped, output: 'boom\n\n<shell_metadata>\nCommand exited with code 2\n</shell_metadata>', metadata: { exit: 2 } } as const
    expect(isInterrupted(failed)).toBe(false)
    expect(failedExit(failed)).toBe(2)
    // Words that merely mention the note, not at the end of a command's output, are not a Stop.
    expect(isInterrupted({ ...stopped, output: `User aborted the command${note}\nmore` })).toBe(false)
    expect(isInterrupted({ ...stopped, metadata: {} })).toBe(false)
    expect(lineCount('')).toBe(0)
    expect(lineCount('a\nb')).toBe(2)
    expect(describeLines(1)).toBe('1 line')
    expect(describeLines(1200)).toBe('1,200 lines')
  })
})

describe('a command that failed', () => {
  const bash = (exit: number, output: string): ToolState => ({ status: 'completed', input: { command: 'x' }, output, title: 'x', metadata: { exit, output }, time: { start: 0, end: 1 } })

  it('reads as failed with its exit code, though its call completed', () => {
    expect(failedExit(bash(127, ''))).toBe(127)
    expect(failedExit(bash(0, ''))).toBeUndefined()
    expect(failedExit({ status: 'completed', input: {}, output: '', title: '', metadata: {}, time: { start: 0, end: 1 } })).toBeUndefined()
  })

  it('shows its output without the notes meant for the model', () => {
    const output = 'x: command not found\n\n\n<shell_metadata>\nCommand exited with code 127\n</shell_metadata>'
    expect(toolOutput(bash(127, output))).toEqual({ label: 'Output', text: 'x: command not found\n' })
  })
})

const done = (input: Record<string, unknown>, metadata: Record<string, unknown>, output = ''): ToolState => ({
  status: 'completed',
  input,
  output,
  title: '',
  metadata,
  time: { start: 1, end: 2 },
})

describe('toolChange', () => {
  const patch = 'Index: a.ts\n===\n--- a.ts\n+++ a.ts\n@@ -1,1 +1,2 @@\n-old\n+new\n+more\n'

  it('takes the diff and counts an edit or write stored in its metadata', () => {
    expect(toolChange(done({ filePath: 'src/a.ts' }, { diff: patch, filediff: { file: '/w/src/a.ts', patch, additions: 2, deletions: 1 } }))).toEqual({
      file: '/w/src/a.ts',
      patch,
      additions: 2,
      deletions: 1,
    })
  })

  it('counts a bare diff string itself, file headers aside', () => {
    expect(toolChange(done({ filePath: 'a.ts' }, { diff: patch }))).toMatchObject({ file: 'a.ts', additions: 2, deletions: 1 })
  })

  it('has nothing for calls that changed no file, or have not finished', () => {
    expect(toolChange(done({ command: 'ls' }, { exit: 0 }))).toBeUndefined()
    expect(toolChange({ status: 'running', input: {}, time: { start: 1 }, metadata: { diff: patch } })).toBeUndefined()
  })

  it('says the counts in words', () => {
    expect(describeChange({ additions: 1, deletions: 0 })).toBe('1 addition, 0 deletions')
  })
})

describe('readContent', () => {
  it('gives the numbered lines of a read and its closing note', () => {
    const output = '<path>/w/a.ts</path>\n<type>file</type>\n<content>\n1: const a = 1\n2: \n3:   return a\n\n(End of file - total 3 lines)\n</content>'
    expect(readContent(output)).toEqual({
      lines: [
        { number: 1, text: 'const a = 1' },
        { number: 2, text: '' },
        { number: 3, text: '  return a' },
      ],
      note: 'End of file - total 3 lines',
    })
  })

  it('keeps the numbers of a page from an offset, and reads an empty file as no lines', () => {
    expect(readContent('<content>\n10: x\n\n(Showing lines 10-10 of 40. Use offset=11 to continue.)\n</content>')?.lines).toEqual([{ number: 10, text: 'x' }])
    expect(readContent('<content>\n\n\n(End of file - total 0 lines)\n</content>')).toEqual({ lines: [], note: 'End of file - total 0 lines' })
  })

  it('is undefined for outputs that are not a file page', () => {
    expect(readContent('<path>/w</path>\n<type>directory</type>\n<entries>\na.ts\n</entries>')).toBeUndefined()
  })
})

describe('commandOf', () => {
  it('gives the command and its exit code for bash only', () => {
    expect(commandOf('bash', done({ command: 'npm test' }, { exit: 2 }))).toEqual({ command: 'npm test', exit: 2 })
    expect(commandOf('bash', { status: 'running', input: { command: 'sleep 9' }, time: { start: 1 } })).toEqual({ command: 'sleep 9', exit: undefined })
    expect(commandOf('read', done({ command: 'x' }, {}))).toBeUndefined()
  })
})

describe('a denied call on its card', () => {
  it('says which rule decided, without the rules listed for the model', () => {
    const error = new PermissionDeniedError({
      permission: 'edit',
      pattern: 'src/.env',
      rule: { permission: 'edit', pattern: '*.env', action: 'deny' },
      rules: [{ permission: 'edit', pattern: '*', action: 'allow' }, { permission: 'edit', pattern: '*.env', action: 'deny' }],
    })
    expect(error.message).toContain('[{')
    expect(toolErrorText(error.message)).toBe('Denied by a permission rule: edit "*.env" → deny (for "src/.env"). Rules are in Settings, under the agent.')
    expect(toolErrorText('File not found: a.ts')).toBe('File not found: a.ts')
  })
})

describe('commandEnding', () => {
  const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n')

  it('shows a short output whole, without its trailing newlines', () => {
    expect(commandEnding('Ran 3 tests in 0.01s\n\nOK\n')).toEqual({ text: 'Ran 3 tests in 0.01s\n\nOK', earlier: 0 })
    expect(commandEnding(numbered(12))).toEqual({ text: numbered(12), earlier: 0 })
  })

  it('shows the last ten lines of a long output, with the verdict, and counts the lines above them', () => {
    const output = `${numbered(6363)}\nRan 6365 tests in 41.2s\n\nFAILED (failures=3)\n`
    const ending = commandEnding(output)!
    expect(ending.earlier).toBe(6356)
    expect(ending.text.split('\n')).toHaveLength(10)
    expect(ending.text).toMatch(/^line 6357\n[\s\S]*Ran 6365 tests in 41.2s\n\nFAILED \(failures=3\)$/)
  })

  it('keeps a huge last line to its end', () => {
    const ending = commandEnding(`start\n${'x'.repeat(50_000)}end`)!
    expect(ending.text).toHaveLength(ENDING_CHARS + 1)
    expect(ending.text.startsWith('…')).toBe(true)
    expect(ending.text.endsWith('xend')).toBe(true)
  })

  it('has no ending for no output', () => {
    expect(commandEnding('')).toBeUndefined()
    expect(commandEnding('\n\n')).toBeUndefined()
  })
})
