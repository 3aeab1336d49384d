import { describe, expect, it } from 'vitest'
import { shellNotes, stoppedByUser, USER_ABORTED_NOTE, withShellNotes } from './shell-notes'

describe('the notes at the end of a command\'s output', () => {
  it('appends them in a <shell_metadata> block, as opencode\'s bash does, and reads them back', () => {
    const output = withShellNotes('partial\n', [USER_ABORTED_NOTE])
    expect(output).toBe('partial\n\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>')
    expect(shellNotes(output)).toEqual([USER_ABORTED_NOTE])
    expect(withShellNotes('done', [])).toBe('done')
  })

  it('tells a stopped command from one that failed, timed out or only printed the words', () => {
    expect(stoppedByUser(withShellNotes('so far', [USER_ABORTED_NOTE]))).toBe(true)
    expect(stoppedByUser(withShellNotes('boom', ['Command exited with code 1']))).toBe(false)
    expect(stoppedByUser('User aborted the command')).toBe(false)
    expect(stoppedByUser(`${withShellNotes('a', [USER_ABORTED_NOTE])}\nlater output`)).toBe(false)
  })
})
