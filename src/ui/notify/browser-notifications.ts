import { log } from '../../core/log'
import type { Notice } from './decide-notification'

export type NotificationAccess = NotificationPermission | 'unsupported'

/** The browser's answer for this site so far: `default` until the user was asked, `unsupported` without the API. */
export function notificationAccess(): NotificationAccess {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/**
 * Asks the browser (its prompt, once per site until the user answers). Only ever called from the user turning
 * notifications on: a prompt at boot, for something the user never asked for, is what browsers learn to mute.
 */
export async function askNotificationAccess(): Promise<NotificationAccess> {
  if (typeof Notification === 'undefined') return 'unsupported'
  return Notification.requestPermission()
}

/**
 * Shows a notice; a click brings this tab forward and runs `onClick`. Where the page may not construct notifications
 * (Chrome on Android wants a service worker's), nothing is shown and the title mark still tells.
 */
export function showNotice(notice: Notice, onClick: () => void): void {
  try {
    const shown = new Notification(notice.title, { body: notice.body, tag: notice.tag, icon: '/icon-192.png' })
    shown.onclick = () => {
      window.focus()
      shown.close()
      onClick()
    }
  } catch (error) {
    log.warn('tabcode: could not show a notification', error)
  }
}
