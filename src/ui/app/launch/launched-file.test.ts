import { describe, expect, it } from 'vitest'
import { kindOfLaunchedFile, notOpenedText } from './launched-file'

describe('kindOfLaunchedFile', () => {
  it('takes a .json file (or one typed as JSON) for an exported session', () => {
    expect(kindOfLaunchedFile({ name: 'Fix login.JSON', type: '' })).toBe('session')
    expect(kindOfLaunchedFile({ name: 'export', type: 'application/json' })).toBe('session')
  })

  it('takes a .zip file (or one typed as a zip) for a project', () => {
    expect(kindOfLaunchedFile({ name: 'site.zip', type: '' })).toBe('zip')
    expect(kindOfLaunchedFile({ name: 'archive', type: 'application/x-zip-compressed' })).toBe('zip')
  })

  it('leaves anything else unopened, and says why', () => {
    expect(kindOfLaunchedFile({ name: 'notes.txt', type: 'text/plain' })).toBe('other')
    expect(notOpenedText('notes.txt')).toContain('“notes.txt” is neither')
  })
})
