const MARK = /^\(\d+\) /

/**
 * The page's title with how many things ended or wait since the user left it, as "(2) tabcode" (the tab strip and the
 * task bar show it with or without notifications); no mark for none. A mark already there is replaced, never stacked.
 */
export function markedTitle(title: string, count: number): string {
  const plain = unmarkedTitle(title)
  return count > 0 ? `(${count}) ${plain}` : plain
}

/** The title without its mark. */
export function unmarkedTitle(title: string): string {
  return title.replace(MARK, '')
}
