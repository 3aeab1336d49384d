import { describe, expect, it } from 'vitest'
import type { ToolState } from '../../../core/schema'
import { commandRuntime, describeLines, failedExit, isInterrupted, lineCount, toolDuration, toolOutput, toolSubject } from './tool-summary'

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
    expect(toolSubject(state)).toBe('List files')
  })

  it('falls back to the most telling input, first line only, shortened', () => {
    expect(toolSubject({ status: 'pending', input: { filePath: 'src/a.ts', other: 1 }, raw: '' })).toBe('src/a.ts')
    expect(toolSubject({ status: 'pending', input: { command: 'echo one\necho two' }, raw: '' })).toBe('echo one')
    const long = 'x'.repeat(300)
    expect(toolSubject({ status: 'pending', input: { query: long }, raw: '' })).toHaveLength(120)
    expect(toolSubject({ status: 'pending', input: {}, raw: '' })).toBeUndefined()
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
    // A stopped command keeps its own result (completed, exit 130): still interrupted, and not shown as a failure.
    const stopped = { status: 'completed', input: {}, output: 'so far', title: 't', metadata: { exit: 130, interrupted: true }, time: { start: 0, end: 1 } } as const
    expect(isInterrupted(stopped)).toBe(true)
    expect(failedExit(stopped)).toBeUndefined()
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
