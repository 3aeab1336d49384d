import { describe, expect, it } from 'vitest'
import { bootFailureMessage, checkWebContainerSupport, type WebContainerEnvironment } from './capability'

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const IOS_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1'

const good: WebContainerEnvironment = { crossOriginIsolated: true, hasSharedArrayBuffer: true, userAgent: CHROME, online: true }

describe('checkWebContainerSupport', () => {
  it('supports an isolated, online Chromium or Firefox page', () => {
    expect(checkWebContainerSupport(good)).toEqual({ supported: true })
    expect(checkWebContainerSupport({ ...good, userAgent: FIREFOX })).toEqual({ supported: true })
  })

  it('explains a page without cross-origin isolation', () => {
    for (const environment of [{ ...good, crossOriginIsolated: false }, { ...good, hasSharedArrayBuffer: false }]) {
      const support = checkWebContainerSupport(environment)
      expect(support).toMatchObject({ supported: false, reason: 'not-isolated' })
      if (!support.supported) expect(support.message).toMatch(/^WebContainer needs cross-origin isolation, which this page does not have/)
    }
  })

  it('explains Safari and iOS browsers, even when the page is not isolated there', () => {
    for (const userAgent of [SAFARI, IOS_CHROME]) {
      const support = checkWebContainerSupport({ ...good, userAgent, crossOriginIsolated: false })
      expect(support).toMatchObject({ supported: false, reason: 'unsupported-browser' })
      if (!support.supported) expect(support.message).toContain('needs a Chromium-based browser (Chrome, Edge, Brave) or Firefox')
    }
  })

  it('explains being offline', () => {
    const support = checkWebContainerSupport({ ...good, online: false })
    expect(support).toMatchObject({ supported: false, reason: 'offline' })
    if (!support.supported) expect(support.message).toMatch(/^You are offline: WebContainer loads its runtime from StackBlitz\./)
  })

  it('says what the app uses instead', () => {
    const support = checkWebContainerSupport({ ...good, online: false })
    if (!support.supported) expect(support.message).toContain('offline workspace')
  })
})

describe('bootFailureMessage', () => {
  it('names the timeout in seconds', () => {
    expect(bootFailureMessage('timeout', 20_000)).toBe('StackBlitz could not be reached within 20 s; using the offline workspace.')
  })

  it('carries the error of a failed boot', () => {
    expect(bootFailureMessage(new Error('Only a single WebContainer instance can be booted'))).toBe(
      'WebContainer failed to start (Only a single WebContainer instance can be booted); using the offline workspace.',
    )
    expect(bootFailureMessage(undefined)).toBe('WebContainer failed to start; using the offline workspace.')
  })
})
