/** Equality for memos and signals over lists: the same items, by identity, in the same order. */
export const sameItems = <T>(left: readonly T[], right: readonly T[]): boolean =>
  left.length === right.length && left.every((item, index) => item === right[index])
