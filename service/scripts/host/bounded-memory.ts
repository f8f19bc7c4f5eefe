// The memory of one run's engine: a WebAssembly memory with a maximum. QuickJS's own accounting
// cannot be trusted as the limit: this build has no `malloc_usable_size`, so it counts a few bytes
// per allocation whatever its size, and an ArrayBuffer of a megabyte counted as nothing. The
// engine's heap, its stack and every byte a script allocates live in this memory, which the
// WebAssembly engine refuses to grow past its maximum: an allocation beyond it fails in the
// engine's malloc, and the script gets QuickJS's "out of memory" error.
//
// The engine's C library grows the memory through `grow`, trying smaller steps after a refused
// one within the same call; an allocation has failed when a refusal is the last word before the
// engine hands control back to the host (`settle`).

/** WebAssembly's page. */
const PAGE_BYTES = 64 * 1024;

/** What the engine's module asks for at its start (its INITIAL_MEMORY): its data, stack and first heap. */
export const ENGINE_INITIAL_BYTES = 16 * 1024 * 1024;

/** The part of WebAssembly's Memory used here (WebAssembly's types are in the DOM's library, not Node's). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A compiled WebAssembly module, opaque here. */
export interface WasmModule {
  readonly compiled: true;
}

const { Memory, Module } = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
      Module: new (bytes: Uint8Array) => WasmModule;
    };
  }
).WebAssembly;

/** Compiles WebAssembly's bytes into a module that can be instantiated many times. */
export const compileModule = (bytes: Uint8Array): WasmModule => new Module(bytes);

export class BoundedMemory {
  readonly memory: WasmMemory;
  /** A growth was refused and nothing grew since. */
  private refused = false;
  /** An allocation failed for want of memory during this run. */
  private exhausted = false;

  constructor(readonly limitBytes: number) {
    const maximum = Math.max(ENGINE_INITIAL_BYTES, limitBytes);
    this.memory = new Memory({
      initial: ENGINE_INITIAL_BYTES / PAGE_BYTES,
      maximum: Math.floor(maximum / PAGE_BYTES),
    });
    const grow = this.memory.grow.bind(this.memory);
    // The engine calls the memory's own `grow`: watched here, and refused past the maximum by
    // WebAssembly itself, whatever this wrapper does.
    this.memory.grow = (pages: number) => {
      try {
        const previous = grow(pages);
        this.refused = false;
        return previous;
      } catch (error) {
        this.refused = true;
        throw error;
      }
    };
  }

  /** The memory's size now, in bytes. */
  get bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Called when the engine has handed control back: whether it ran out of memory so far. */
  settle(): boolean {
    if (this.refused) this.exhausted = true;
    this.refused = false;
    return this.exhausted;
  }
}
