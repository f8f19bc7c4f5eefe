// The syntax check of a script's code when it is created or changed, by the engine that will run
// it. Compiling runs nothing of the code, so it happens here in the service, in an engine of its
// own (QuickJS in WebAssembly, loaded on first use), not in a script host.
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { SCRIPT_FILENAME, errorLine, wrapCode } from './host/protocol';

/** Small enough that the compiler's own limit, not Node's stack, stops deeply nested code. */
const COMPILE_STACK_BYTES = 256 * 1024;
const COMPILE_MEMORY_BYTES = 32 * 1024 * 1024;

let engine: Promise<QuickJSWASMModule> | null = null;

/** Why the code does not compile, or null. */
export async function syntaxProblem(code: string): Promise<string | null> {
  engine ??= newQuickJSWASMModuleFromVariant(variant);
  const runtime = (await engine).newRuntime();
  try {
    runtime.setMemoryLimit(COMPILE_MEMORY_BYTES);
    runtime.setMaxStackSize(COMPILE_STACK_BYTES);
    const vm = runtime.newContext();
    const compiled = vm.evalCode(wrapCode(code), SCRIPT_FILENAME, { compileOnly: true });
    let problem: string | null = null;
    if (compiled.error) {
      const error = vm.dump(compiled.error) as { name?: unknown; message?: unknown; stack?: unknown };
      problem = errorLine(error.name ?? 'SyntaxError', error.message, error.stack);
      compiled.error.dispose();
    } else {
      compiled.value.dispose();
    }
    vm.dispose();
    runtime.dispose();
    return problem;
  } catch (error) {
    // Node's stack gave out inside the engine: this engine is not trusted again.
    engine = null;
    if (error instanceof RangeError) return 'the code is nested too deeply';
    throw error;
  }
}
