// The reporter of `npm run test:unit`: node's spec reporter, except for known issues. A test marked
// `todo` with its reason (a code-block corpus case the engine does not get right yet) is expected to
// fail; the spec reporter prints such a failure with a red cross, its stack, and again under "failing
// tests", which reads as a broken build. Here it is one line, "known issue", with its reason, and the
// run ends with the list of known issues and a closing line `N passed, N failed, N known issues` (the
// spec reporter's `ℹ pass N` / `ℹ fail N` lines are kept above it). A todo test that passes says so:
// its todo mark can go.
import { Transform } from 'node:stream';
import { spec } from 'node:test/reporters';

const KNOWN = '◌ known issue: ';
const FIXED = '✔ known issue now passes (remove its todo): ';

/** @param {{ name: string, todo?: string | boolean }} data */
function todoReason(data) {
  return typeof data.todo === 'string' && data.todo !== '' ? data.todo : 'todo';
}

/** The first line of a failure's message, to say how a known issue fails today. */
function firstLine(/** @type {any} */ details) {
  const error = details?.error?.cause ?? details?.error;
  const message = error instanceof Error ? error.message : String(error ?? '');
  return message.split('\n').find((line) => line.trim() !== '') ?? '';
}

/** Replaces the last `✔ ` of the spec reporter's text for one test by `symbol`. */
function relabel(/** @type {string} */ text, /** @type {string} */ symbol) {
  const at = text.lastIndexOf('✔ ');
  return at < 0 ? text : `${text.slice(0, at)}${symbol}${text.slice(at + 2)}`;
}

export default class KnownIssuesReporter extends Transform {
  /** The spec reporter, fed event by event; its text is passed on, known issues relabelled. */
  #spec = new spec();
  /** @type {{ name: string, reason: string, failure: string }[]} */
  #known = [];
  /** @type {string[]} */
  #fixed = [];
  /** The run's totals from node's closing diagnostics (`pass 817`, `fail 0`, `todo 4`). */
  #totals = new Map();

  constructor() {
    super({ writableObjectMode: true });
  }

  /**
   * @param {{ type: string, data: any }} event
   * @param {BufferEncoding} encoding
   * @param {(error?: Error | null, text?: string) => void} callback
   */
  _transform(event, encoding, callback) {
    const { type, data } = event;
    const isTodo = data?.todo !== undefined && data.todo !== false;
    if (type === 'test:diagnostic') {
      const total = /^(tests|pass|fail|todo|skipped|cancelled) (\d+)$/.exec(data.message);
      if (total && data.nesting === 0) {
        this.#totals.set(total[1], Number(total[2]));
      }
    }
    if (type === 'test:fail' && isTodo) {
      // As a pass for the spec reporter (no stack, not under "failing tests"), then relabelled.
      this.#known.push({ name: data.name, reason: todoReason(data), failure: firstLine(data.details) });
      const asPass = { ...data, details: { duration_ms: data.details?.duration_ms } };
      this.#spec._transform({ type: 'test:pass', data: asPass }, encoding, (error, text) =>
        callback(error, relabel(String(text ?? ''), KNOWN)),
      );
      return;
    }
    if (type === 'test:pass' && isTodo && data.details?.type !== 'suite') {
      this.#fixed.push(data.name);
      this.#spec._transform(event, encoding, (error, text) => callback(error, relabel(String(text ?? ''), FIXED)));
      return;
    }
    this.#spec._transform(event, encoding, callback);
  }

  /** @param {(error?: Error | null, text?: string) => void} callback */
  _flush(callback) {
    this.#spec._flush((error, failing) => {
      const out = [];
      if (this.#known.length > 0) {
        out.push(`\n${KNOWN.trim()} ${this.#known.length} test${this.#known.length === 1 ? '' : 's'} marked todo fail as expected:`);
        for (const known of this.#known) {
          out.push(`  - ${known.name}\n    why: ${known.reason}${known.failure ? `\n    today: ${known.failure}` : ''}`);
        }
      }
      for (const name of this.#fixed) {
        out.push(`${FIXED}${name}`);
      }
      const text = `${out.length > 0 ? `${out.join('\n')}\n` : ''}${String(failing ?? '')}`;
      const passed = this.#totals.get('pass') ?? 0;
      const failed = this.#totals.get('fail') ?? 0;
      const closing = `\n${passed} passed, ${failed} failed, ${this.#known.length} known issue${this.#known.length === 1 ? '' : 's'}\n`;
      callback(error, `${text}${closing}`);
    });
  }
}
