import { describe, expect, it } from 'vitest'
import { addressWithoutLaunch, NEW_SESSION_ADDRESS, readLaunchAddress } from './launch-address'

const LINK = 'https://tabcode.example/#/share/v1.AAAAEnicS0ktLlEoSS0u0QEAMvIFxw'

describe('readLaunchAddress', () => {
  it('reads nothing from an ordinary address', () => {
    expect(readLaunchAddress('')).toEqual({ type: 'none' })
    expect(readLaunchAddress('?utm_source=x&text=hello')).toEqual({ type: 'none' })
  })

  it('reads the New session shortcut', () => {
    expect(readLaunchAddress(new URL(NEW_SESSION_ADDRESS, 'https://tabcode.example').search)).toEqual({ type: 'new-session' })
  })

  it('says what it does not know instead of doing something else', () => {
    const action = readLaunchAddress('?launch=delete-everything')
    expect(action).toMatchObject({ type: 'unknown' })
    expect(action.type === 'unknown' && action.problem).toContain('“delete-everything”')
  })

  it('opens a shared tabcode link, from the url or among the words of the text', () => {
    expect(readLaunchAddress(`?share-url=${encodeURIComponent(LINK)}`)).toEqual({ type: 'open-share-link', link: '#/share/v1.AAAAEnicS0ktLlEoSS0u0QEAMvIFxw' })
    expect(readLaunchAddress(`?share-title=Look&share-text=${encodeURIComponent(`Have a look: ${LINK} (from Ann)`)}`)).toEqual({
      type: 'open-share-link',
      link: '#/share/v1.AAAAEnicS0ktLlEoSS0u0QEAMvIFxw',
    })
    expect(readLaunchAddress(`?share-text=${encodeURIComponent('#/share/v1e.abc_-')}`)).toEqual({ type: 'open-share-link', link: '#/share/v1e.abc_-' })
  })

  it('makes any other share a draft, saying each part once', () => {
    expect(readLaunchAddress('?share-text=Fix+the+login+bug')).toEqual({ type: 'draft', text: 'Fix the login bug' })
    expect(readLaunchAddress(`?share-title=Docs&share-text=Read+this&share-url=${encodeURIComponent('https://example.com/a')}`)).toEqual({
      type: 'draft',
      text: 'Docs\n\nRead this\n\nhttps://example.com/a',
    })
    // The page's name as title, its address again in the text and in the url.
    expect(
      readLaunchAddress(`?share-title=Example&share-text=${encodeURIComponent('Example https://example.com/a')}&share-url=${encodeURIComponent('https://example.com/a')}`),
    ).toEqual({ type: 'draft', text: 'Example https://example.com/a' })
  })

  it('says so when a share holds nothing', () => {
    expect(readLaunchAddress('?share-title=&share-text=%20')).toMatchObject({ type: 'unknown' })
  })
})

describe('addressWithoutLaunch', () => {
  it('takes off only what a launch put there', () => {
    expect(addressWithoutLaunch('https://tabcode.example/?launch=new-session')).toBe('/')
    expect(addressWithoutLaunch('https://tabcode.example/?share-text=a&keep=1#/session/ses_1')).toBe('/?keep=1#/session/ses_1')
  })
})
