import TurndownService from 'turndown'
// @ts-expect-error domino's types declare a module named `domino`, not this package.
import domino from '@mixmark-io/domino'

/** What this module uses of domino. */
interface Domino {
  createDocument(html: string): Document
}

/**
 * turndown for just-bash's `html-to-markdown` in a worker. turndown's browser build parses HTML with the page's
 * `DOMParser` or `document`, which a worker has neither of; its Node build uses domino (a DOM written in JavaScript)
 * instead. This is the browser build given domino's parse of the input. vite.config.ts puts this module in place of
 * `turndown` for just-bash's browser build only (`browserShims`).
 */
export default class WorkerTurndownService extends TurndownService {
  override turndown(input: string | TurndownService.Node): string {
    if (typeof input !== 'string') return super.turndown(input)
    // Wrapped as turndown wraps a string itself, so that the parser keeps every element under one root.
    const document = (domino as Domino).createDocument(`<x-turndown id="turndown-root">${input}</x-turndown>`)
    return super.turndown(document.getElementById('turndown-root')!)
  }
}
