// Source text that several suites (unit and integration) match against, kept in one place.

/** A small TypeScript function; lines 3-5 are its loop, the usual target of the near-miss tests. */
export const TOTAL_FUNCTION = [
  'export function total(items: Item[]): number {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price * item.quantity;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');
