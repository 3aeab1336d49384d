import { describe, expect, it } from 'vitest'
import type { ToolPart, ToolState } from '../../core/schema'
import { truncateTail } from './tail'
import { describeEnd, terminalEntry } from './terminal-entry'

const bash = (state: ToolState): ToolPart => ({ id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'tool', callID: 'c1', tool: 'bash', state })
const input = { command: 'npm test' }

describe('a bash call in the terminal', () => {
  it('waits for the command while the model writes it', () => {
    const entry = terminalEntry(bash({ status: 'pending', input: {}, raw: '' }))
    expect(entry.command).toBeUndefined()
    expect(describeEnd(entry.state)).toBe('starting…')
  })

  it('streams output from the metadata while it runs', () => {
    const entry = terminalEntry(bash({ status: 'running', input, metadata: { output: 'ok 1\n' }, time: { start: 1 } }))
    expect(entry).toMatchObject({ command: 'npm test', output: 'ok 1\n' })
    expect(describeEnd(entry.state)).toBe('running…')
  })

  it('ends with the exit code, preferring the streamed output to the model-facing one', () => {
    const entry = terminalEntry(
      bash({ status: 'completed', input, output: 'ok 1\n<exit 2>', title: 'npm test', metadata: { output: 'ok 1\n', exit: 2 }, time: { start: 1, end: 2 } }),
    )
    expect(entry.output).toBe('ok 1\n')
    expect(describeEnd(entry.state)).toBe('exit 2')
  })

  it('never prints the <shell_metadata> notes meant for the model, even from parts stored with them', () => {
    const note = '\n\n<shell_metadata>\nCommand exited with code 127\n</shell_metadata>'
    const stored = terminalEntry(
      bash({ status: 'completed', input, output: `nope: not found${note}`, title: 'x', metadata: { output: `nope: not found${note}`, exit: 127 }, time: { start: 1, end: 2 } }),
    )
    expect(stored.output).toBe('nope: not found')
    expect(describeEnd(stored.state)).toBe('exit 127')
  })

  it('tells an interrupted call from a failed one, keeping partial output', () => {
    const interrupted = terminalEntry(bash({ status: 'error', input, error: 'aborted', metadata: { interrupted: true, output: 'half' }, time: { start: 1, end: 2 } }))
    expect(interrupted.output).toBe('half')
    expect(describeEnd(interrupted.state)).toBe('interrupted')
    const failed = terminalEntry(bash({ status: 'error', input, error: 'no shell', time: { start: 1, end: 2 } }))
    expect(describeEnd(failed.state)).toBe('failed: no shell')
  })
})

describe('the tail of long output', () => {
  it('keeps the last lines and counts the rest', () => {
    expect(truncateTail('a\nb\nc\nd\n', 2)).toEqual({ text: 'c\nd\n', hidden: 2 })
    expect(truncateTail('a\nb', 2)).toEqual({ text: 'a\nb', hidden: 0 })
    expect(truncateTail('', 2)).toEqual({ text: '', hidden: 0 })
  })
})
