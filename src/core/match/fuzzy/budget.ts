// The work budget every stage of the fuzzy search spends from: operations counted, not time measured,
// so a search's results and its cost are the same on every run. Its own file as all stages share it.

/** Thrown by Budget.spend when the work cap is reached; the search then returns what it has. */
const WORK_CAP_REACHED = new Error('fuzzy work cap reached');

/** Deterministic cost accounting: operations counted, not time measured, so results are repeatable. */
export class Budget {
  used = 0;
  truncated = false;
  constructor(readonly cap: number) {}

  spend(amount: number): void {
    this.used += amount;
    if (this.used > this.cap) {
      this.truncated = true;
      throw WORK_CAP_REACHED;
    }
  }
}

/** Runs a stage of the search; reaching the work cap ends it early (the search goes on with what it has). */
export function untilCapReached(stage: () => void): void {
  try {
    stage();
  } catch (e) {
    if (e !== WORK_CAP_REACHED) {
      throw e;
    }
  }
}
