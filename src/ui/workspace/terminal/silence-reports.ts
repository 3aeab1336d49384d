import type { IDisposable, IParser } from '@xterm/xterm'

/**
 * Modes with which a program makes the terminal send input of its own: mouse tracking (9, 1000–1003) and focus
 * reporting (1004). Their reports arrive as if typed.
 */
const REPORTING_MODES: ReadonlySet<number> = new Set([9, 1000, 1001, 1002, 1003, 1004])

/** XTWINOPS requests that ask for a report (sizes, positions, the title) rather than acting on the window. */
const WINDOW_REPORTS: ReadonlySet<number> = new Set([11, 13, 14, 15, 16, 18, 19, 20, 21])

/** OSC colour controls: the palette (4) and the foreground, background and cursor colours (10–12). */
const COLOUR_CONTROLS = [4, 10, 11, 12] as const

const first = (param: number | number[] | undefined): number | undefined => (Array.isArray(param) ? param[0] : param)

/**
 * Makes the terminal answer no query and report nothing on its own. xterm.js sends its answers (cursor position,
 * device attributes, a setting, a mode, a colour) and its mouse and focus reports through `onData`, the event that
 * carries the user's keys, so output that asks (a file being `cat`ed) would type the answers into the prompt line.
 * Nothing here reads them: a command's stdin is never the terminal, so no program can be waiting for an answer.
 *
 * The handlers go in front of xterm's own (the last registered runs first) and return true, which ends the
 * sequence there. The colour controls are taken whole, setting included: the terminal's colours are the app's
 * theme, which output does not change either. A mode set that names a reporting mode is dropped whole.
 */
export function silenceReports(parser: IParser): IDisposable[] {
  const swallow = () => true
  return [
    // DA1, DA2, DA3: device attributes.
    parser.registerCsiHandler({ final: 'c' }, swallow),
    parser.registerCsiHandler({ prefix: '>', final: 'c' }, swallow),
    parser.registerCsiHandler({ prefix: '=', final: 'c' }, swallow),
    // DSR: status and cursor position, in both forms.
    parser.registerCsiHandler({ final: 'n' }, swallow),
    parser.registerCsiHandler({ prefix: '?', final: 'n' }, swallow),
    // DECRQM: whether a mode is set, in both forms.
    parser.registerCsiHandler({ intermediates: '$', final: 'p' }, swallow),
    parser.registerCsiHandler({ prefix: '?', intermediates: '$', final: 'p' }, swallow),
    // XTVERSION.
    parser.registerCsiHandler({ prefix: '>', final: 'q' }, swallow),
    parser.registerCsiHandler({ final: 't' }, (params) => WINDOW_REPORTS.has(first(params[0]) ?? 0)),
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => params.some((param) => REPORTING_MODES.has(first(param) ?? 0))),
    // DECRQSS: the value of a setting.
    parser.registerDcsHandler({ intermediates: '$', final: 'q' }, swallow),
    ...COLOUR_CONTROLS.map((control) => parser.registerOscHandler(control, swallow)),
  ]
}
