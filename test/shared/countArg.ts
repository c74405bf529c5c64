// The long property runs' one kind of flag: `--name N`, a non-negative integer (a case count, a seed).
// A bad value exits 2 naming the flag, before any case runs.

/** The value of `--name` on the command line, or `fallback` when the flag is absent. */
export function countArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) {
    return fallback;
  }
  const value = Number(process.argv[i + 1]);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} needs a non-negative integer, got ${JSON.stringify(process.argv[i + 1])}`);
    process.exit(2);
  }
  return value;
}
