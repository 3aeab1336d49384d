// @vitest-environment happy-dom
import { Terminal } from '@xterm/xterm'
import { describe, expect, it } from 'vitest'
import { silenceReports } from './silence-reports'

/** A real xterm.js (never opened: its parser and modes are all this needs) that records what it would send as input. */
function terminal() {
  const screen = new Terminal()
  silenceReports(screen.parser)
  const sent: string[] = []
  screen.onData((data) => sent.push(data))
  screen.onBinary((data) => sent.push(data))
  const write = (data: string) => new Promise<void>((resolve) => screen.write(data, resolve))
  return { screen, sent, write }
}

describe('a terminal that answers no query', () => {
  it('sends nothing for cursor position, status, device attributes, settings, modes, versions or colours', async () => {
    const t = terminal()
    await t.write('\x1b[6n\x1b[5n\x1b[?6n\x1b[c\x1b[0c\x1b[>c\x1b[=c\x1bP$qm\x1b\\\x1bP$q"p\x1b\\\x1b[?2004$p\x1b[4$p\x1b[>0q')
    await t.write('\x1b]10;?\x1b\\\x1b]11;?\x07\x1b]4;1;?\x1b\\\x1b[18t\x1b[14t')
    expect(t.sent).toEqual([])
  })

  it('keeps mouse and focus reports off, and the other modes working', async () => {
    const t = terminal()
    await t.write('\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?9h\x1b[?1004h\x1b[?1006;1000h')
    expect(t.screen.modes.mouseTrackingMode).toBe('none')
    expect(t.screen.modes.sendFocusMode).toBe(false)
    await t.write('\x1b[?2004h\x1b[?1h')
    expect(t.screen.modes.bracketedPasteMode).toBe(true)
    expect(t.screen.modes.applicationCursorKeysMode).toBe(true)
  })
})
