// @ts-expect-error turndown ships no types; the one method used here is typed below.
import TurndownService from 'turndown'
// @ts-expect-error domino's types declare a module named `domino`, not this package.
import domino from '@mixmark-io/domino'

/** What this module uses of turndown: the service, which converts a DOM node as readily as a string. */
interface Domino {
  createDocument(html: string): Document
}

type Turndown = new (options?: Record<string, unknown>) => { turndown(input: unknown): string }

const Base = TurndownService as Turndown

/**
 * turndown for just-bash's `html-to-markdown` in a worker. turndown's browser build parses HTML with the page's
 * `DOMParser` or `document`, which a worker has neither of; its Node build uses domino (a DOM written in JavaScript)
 * instead. This is the browser build given domino's parse of the input. vite.config.ts puts this module in place of
 * `turndown` for just-bash's browser build only (`browserShims`).
 */
export default class WorkerTurndownService extends Base {
  override turndown(input: unknown): string {
    if (typeof input !== 'string') return super.turndown(input)
    // Wrapped as turndown wraps a string itself, so that the parser keeps every element under one root.
    const document = (domino as Domino).createDocument(`<x-turndown id="turndown-root">${input}</x-turndown>`)
    return super.turndown(document.getElementById('turndown-root'))
  }
}
