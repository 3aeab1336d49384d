import { describe, expect, it } from 'vitest'
import { findWheel, normalizeName, OFFLINE_WHEELS, parseRequirement, requirementLines, resolve } from './wheels'

const requirement = (text: string) => parseRequirement(text)!

describe('the offline set', () => {
  it('pins every wheel by version and sha256, and every dependency is in the set', () => {
    expect(OFFLINE_WHEELS.map((wheel) => wheel.name).sort()).toEqual(['iniconfig', 'packaging', 'pluggy', 'pygments', 'pytest'])
    for (const wheel of OFFLINE_WHEELS) {
      expect(wheel.file).toBe(`${wheel.name}-${wheel.version}-py3-none-any.whl`)
      for (const dependency of wheel.requires) expect(findWheel(dependency)).toBeDefined()
    }
  })

  it('resolves pytest to its dependencies first, each once', () => {
    const resolution = resolve([requirement('pytest'), requirement('pluggy')])
    expect(resolution.type).toBe('resolved')
    const names = resolution.type === 'resolved' ? resolution.wheels.map((wheel) => wheel.name) : []
    expect(names).toEqual(['iniconfig', 'packaging', 'pluggy', 'pygments', 'pytest'])
  })

  it('names what is not in the set, and a version the set does not have', () => {
    expect(resolve([requirement('requests'), requirement('pytest'), requirement('numpy>=2')])).toEqual({ type: 'unknown', names: ['requests', 'numpy'] })
    const version = resolve([requirement('pytest==8.0.0')])
    expect(version.type).toBe('version')
    expect(resolve([requirement('pytest==9.1.1')]).type).toBe('resolved')
  })

  it('compares names as pip does and reads requirements files', () => {
    expect(normalizeName('Py_Test.x')).toBe('py-test-x')
    expect(findWheel('Pygments')?.name).toBe('pygments')
    expect(parseRequirement('pytest[testing] == 9.1.1 ; python_version >= "3.8"')).toEqual({ name: 'pytest', pinned: '9.1.1', text: 'pytest[testing] == 9.1.1 ; python_version >= "3.8"' })
    expect(parseRequirement('==1')).toBeUndefined()
    expect(requirementLines('# tests\npytest==9.1.1  # runner\n\n-r other.txt\npluggy\n')).toEqual(['pytest==9.1.1', 'pluggy'])
  })
})
