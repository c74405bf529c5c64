// The full scorer's bigram ids: a character pair to a dense id, only for pairs SEARCH has. The
// scorer's hottest lookup, a small hash table of its own, so it is a file of its own.

/**
 * Open-addressing map from a character pair to a dense id; the scorer's hottest lookup. It grows
 * with the number of distinct pairs (a few thousand in real text), so it stays cache-sized.
 */
export class PairIds {
  private keys = new Int32Array(1024);
  private values = new Int32Array(1024); // id + 1; 0 marks an empty slot
  private shift = 22; // 32 - log2(capacity)
  size = 0;

  /** The id of the pair, or -1 when SEARCH does not contain it. */
  get(c1: number, c2: number): number {
    const key = (c1 << 16) | c2;
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const v = this.values[slot];
      if (v === 0) {
        return -1;
      }
      if (this.keys[slot] === key) {
        return v - 1;
      }
    }
  }

  intern(c1: number, c2: number): number {
    const key = (c1 << 16) | c2;
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const v = this.values[slot];
      if (v === 0) {
        this.keys[slot] = key;
        this.values[slot] = ++this.size;
        if (2 * this.size > this.keys.length) {
          this.grow();
        }
        return this.size - 1;
      }
      if (this.keys[slot] === key) {
        return v - 1;
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Int32Array(oldKeys.length * 2);
    this.values = new Int32Array(oldKeys.length * 2);
    this.shift--;
    const mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] === 0) {
        continue;
      }
      let slot = Math.imul(oldKeys[i], 0x9e3779b1) >>> this.shift;
      while (this.values[slot] !== 0) {
        slot = (slot + 1) & mask;
      }
      this.keys[slot] = oldKeys[i];
      this.values[slot] = oldValues[i];
    }
  }
}
