import { describe, expect, it } from 'vitest'
import { parsePythonArgs, usageText } from './argv'

describe('parsePythonArgs', () => {
  it('reads the program forms CPython has, and leaves what follows to the program', () => {
    expect(parsePythonArgs(['main.py', '-c', 'x', '--flag'])).toEqual({ kind: 'script', path: 'main.py', args: ['-c', 'x', '--flag'] })
    expect(parsePythonArgs(['-c', 'print(1)', 'a'])).toEqual({ kind: 'code', code: 'print(1)', args: ['a'] })
    expect(parsePythonArgs(['-cprint(1)'])).toEqual({ kind: 'code', code: 'print(1)', args: [] })
    expect(parsePythonArgs(['-m', 'unittest', 'discover', '-s', 'tests'])).toEqual({ kind: 'module', module: 'unittest', args: ['discover', '-s', 'tests'] })
    expect(parsePythonArgs(['-munittest'])).toEqual({ kind: 'module', module: 'unittest', args: [] })
    expect(parsePythonArgs(['-m', 'app.cli', '--verbose'])).toEqual({ kind: 'module', module: 'app.cli', args: ['--verbose'] })
    expect(parsePythonArgs([])).toEqual({ kind: 'stdin', args: [] })
    expect(parsePythonArgs(['-', 'x'])).toEqual({ kind: 'stdin', args: ['x'] })
    expect(parsePythonArgs(['--', '-odd.py'])).toEqual({ kind: 'script', path: '-odd.py', args: [] })
  })

  it('skips interpreter options, alone, clustered or with their argument', () => {
    expect(parsePythonArgs(['-u', '-B', 'main.py'])).toMatchObject({ kind: 'script', path: 'main.py' })
    expect(parsePythonArgs(['-uBc', 'pass'])).toEqual({ kind: 'code', code: 'pass', args: [] })
    expect(parsePythonArgs(['-W', 'ignore', '-X', 'utf8', '-m', 'mod'])).toMatchObject({ kind: 'module', module: 'mod' })
    expect(parsePythonArgs(['-Wignore', 'main.py'])).toMatchObject({ kind: 'script', path: 'main.py' })
  })

  it('answers --version, --help and pip, and names usage errors', () => {
    expect(parsePythonArgs(['--version'])).toEqual({ kind: 'version' })
    expect(parsePythonArgs(['-V'])).toEqual({ kind: 'version' })
    expect(parsePythonArgs(['-h'])).toEqual({ kind: 'help' })
    expect(parsePythonArgs(['-m', 'pip', 'install', 'requests'])).toEqual({ kind: 'pip', args: ['install', 'requests'] })
    expect(parsePythonArgs(['-c'])).toEqual({ kind: 'usage', message: 'Argument expected for the -c option' })
    expect(parsePythonArgs(['-m'])).toEqual({ kind: 'usage', message: 'Argument expected for the -m option' })
    expect(parsePythonArgs(['-Z'])).toEqual({ kind: 'usage', message: 'Unknown option: -Z' })
    expect(usageText('python3', 'Unknown option: -Z')).toContain('usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...')
  })
})
