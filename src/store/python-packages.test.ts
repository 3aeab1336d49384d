import { describe, expect, it } from 'vitest'
import { makeTestContext } from '../testing/test-context'
import { getSettings } from './provider-store'
import { loadPythonPackages, savePythonPackages } from './python-packages'

describe('the packages pip installed', () => {
  it('are none at first, then the whole set last saved, and change none of the settings the UI reads', async () => {
    const { context } = makeTestContext()
    const before = await getSettings(context)
    expect(await loadPythonPackages(context)).toEqual([])
    await savePythonPackages(context, ['iniconfig', 'pytest'])
    await savePythonPackages(context, ['pytest'])
    expect(await loadPythonPackages(context)).toEqual(['pytest'])
    expect(await getSettings(context)).toEqual(before)
  })
})
