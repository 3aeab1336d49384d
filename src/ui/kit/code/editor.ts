import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search'
import { Compartment, EditorState } from '@codemirror/state'
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view'
import { codeHighlighter, loadLanguage } from './highlight'

/**
 * The project-file editor: CodeMirror 6 with the shared highlighter, undo history, find and replace
 * (Ctrl/Cmd+F, Ctrl/Cmd+H… as `@codemirror/search` binds them) and Ctrl/Cmd+S handed to `onSave`.
 * Loaded with `import()` the first time a file opens; the language's parser follows on its own.
 */
export interface CodeEditor {
  readonly view: EditorView
  text(): string
  /** Replaces the whole document (a reload from disk), keeping the cursor where it can. */
  replace(text: string): void
  focus(): void
  destroy(): void
  /** Resolves once the file's language (if any) is highlighting the text. */
  readonly highlighted: Promise<void>
}

export interface CodeEditorOptions {
  parent: HTMLElement
  text: string
  /** The file name picks the language. */
  file: string
  label: string
  onChange: (text: () => string) => void
  onSave: () => void
}

export function createCodeEditor(options: CodeEditorOptions): CodeEditor {
  const language = new Compartment()
  const state = EditorState.create({
    doc: options.text,
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      search({ top: true }),
      syntaxHighlighting(codeHighlighter),
      language.of([]),
      keymap.of([
        // Before the defaults, so the browser's "save page" never opens.
        { key: 'Mod-s', preventDefault: true, run: () => (options.onSave(), true) },
        ...defaultKeymap,
        ...historyKeymap,
        ...searchKeymap,
        indentWithTab,
      ]),
      EditorView.contentAttributes.of({ 'aria-label': options.label }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onChange(() => update.state.doc.toString())
      }),
      theme,
    ],
  })
  const view = new EditorView({ state, parent: options.parent })
  const highlighted = loadLanguage({ file: options.file }).then((loaded) => {
    if (loaded && !destroyed) view.dispatch({ effects: language.reconfigure(loaded) })
    options.parent.dataset.highlighted = 'true'
  })
  let destroyed = false
  return {
    view,
    highlighted,
    text: () => view.state.doc.toString(),
    replace(text) {
      const head = Math.min(view.state.selection.main.head, text.length)
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: head } })
    },
    focus: () => view.focus(),
    destroy() {
      destroyed = true
      view.destroy()
    },
  }
}

// Colours come from the app's theme variables, so light and dark follow the page.
const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--text)', backgroundColor: 'var(--bg)', fontSize: '13px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': { backgroundColor: 'var(--surface-selected)' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--text-faint)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--surface-hover) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--surface-hover)', color: 'var(--text-muted)' },
  '.cm-selectionMatch': { backgroundColor: 'var(--surface-accent)' },
  '.cm-searchMatch': { backgroundColor: 'var(--surface-warning)', outline: '1px solid var(--warning)' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'var(--surface-accent)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--surface-accent)', outline: '1px solid var(--border-strong)' },
  '.cm-panels': { backgroundColor: 'var(--surface)', color: 'var(--text)', borderColor: 'var(--border)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panel.cm-search input, .cm-panel.cm-search button': { font: 'inherit', color: 'var(--text)' },
  '.cm-textfield': { backgroundColor: 'var(--bg)', border: '1px solid var(--border-strong)', borderRadius: '4px' },
  '.cm-button': { backgroundImage: 'none', backgroundColor: 'var(--surface-raised)', border: '1px solid var(--border-strong)', borderRadius: '4px' },
})
