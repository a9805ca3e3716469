import type { NativeHeap } from "../../src/runtime/native-heap.js";

/** A C heap that counts its trims instead of trimming. */
export class CountingHeap implements NativeHeap {
  trims = true;
  count = 0;
  trim(): void {
    this.count++;
  }
}
