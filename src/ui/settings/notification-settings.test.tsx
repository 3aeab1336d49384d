// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSignal } from 'solid-js'
import { render } from 'solid-js/web'
import type { Setting } from '../../core/schema'
import type { Settings } from '../../core/protocol'
import { NotificationSettingsSection } from './notification-settings'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  vi.unstubAllGlobals()
})

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** The browser's Notification API as far as the section uses it: a permission and the prompt's answer. */
function browserThatAnswers(answer: NotificationPermission, initial: NotificationPermission = 'default') {
  const fake = {
    permission: initial,
    requestPermission: vi.fn(async () => {
      fake.permission = answer
      return answer
    }),
  }
  vi.stubGlobal('Notification', fake)
  return fake
}

function mountSection(stored: Partial<Settings['notifications']> = {}) {
  const [settings, setSettings] = createSignal<Settings>({
    retryLimit: 8,
    workspaceBackend: 'auto',
    compactionAuto: true,
    compactionPrune: true,
    compactionTailTurns: 2,
    notifications: { enabled: false, turnEnded: true, waiting: true, error: true, ...stored },
  })
  const saved: Setting[] = []
  const notices: string[] = []
  const store = {
    settings,
    setSetting: async (setting: Setting) => {
      saved.push(setting)
      if (setting.key === 'notifications') setSettings({ ...settings(), notifications: setting.value })
      return settings()
    },
  }
  const container = document.createElement('div')
  document.body.append(container)
  const dispose = render(() => <NotificationSettingsSection store={store} onNotice={(notice) => notices.push(notice.text)} />, container)
  cleanups.push(() => {
    dispose()
    container.remove()
  })
  const control = (name: string) => {
    const label = [...container.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === name)
    return container.querySelector<HTMLInputElement>(`#${CSS.escape(label!.htmlFor)}`)!
  }
  const click = (input: HTMLInputElement) => {
    input.checked = !input.checked
    input.dispatchEvent(new Event('change', { bubbles: true }))
  }
  return { container, saved, notices, control, click, master: () => control('Notify me when tabcode is in the background') }
}

describe('Settings → Notifications', () => {
  it('asks the browser only when the user turns the switch on, then is on', async () => {
    const browser = browserThatAnswers('granted')
    const section = mountSection()
    await settle()
    expect(browser.requestPermission).not.toHaveBeenCalled()
    expect(section.master().checked).toBe(false)
    section.click(section.master())
    await settle()
    expect(browser.requestPermission).toHaveBeenCalledTimes(1)
    expect(section.saved).toEqual([{ key: 'notifications', value: { enabled: true, turnEnded: true, waiting: true, error: true } }])
    expect(section.master().checked).toBe(true)
    expect(section.notices).toEqual(['Notifications on.'])
  })

  it('a browser that blocks them: the switch stays off, nothing is saved, and the section says how to allow them', async () => {
    browserThatAnswers('denied')
    const section = mountSection()
    section.click(section.master())
    await settle()
    expect(section.master().checked).toBe(false)
    expect(section.saved).toEqual([])
    expect(section.notices).toEqual(['The browser blocks notifications for this site.'])
    expect(section.container.textContent).toContain('Your browser blocks notifications for this site. To allow them')
  })

  it('shows off when stored on but the browser has since blocked them', async () => {
    browserThatAnswers('denied', 'denied')
    const section = mountSection({ enabled: true })
    await settle()
    expect(section.master().checked).toBe(false)
    expect(section.container.textContent).toContain('Your browser blocks notifications')
  })

  it('each kind is its own switch, saved with the others as they are', async () => {
    browserThatAnswers('granted', 'granted')
    const section = mountSection({ enabled: true })
    section.click(section.control('An error stops a turn'))
    await settle()
    expect(section.saved).toEqual([{ key: 'notifications', value: { enabled: true, turnEnded: true, waiting: true, error: false } }])
    expect(section.control('An error stops a turn').checked).toBe(false)
  })

  it('without the Notification API the switch is disabled and says why', async () => {
    vi.stubGlobal('Notification', undefined)
    const section = mountSection()
    await settle()
    expect(section.master().disabled).toBe(true)
    expect(section.container.textContent).toContain('This browser cannot show notifications')
  })
})
