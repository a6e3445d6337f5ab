// An engine worker yields the CPU to the thread that answers HTTP: with every core busy judging
// hostile documents, GET /v1/me and every other route of every tenant still answer at once, while
// the workers keep all the CPU the HTTP thread does not use. Linux applies a nice value per thread
// (setpriority on the calling thread); elsewhere, or without glibc, a worker keeps its priority.

import { dlopen, FFIType } from "bun:ffi";

/** The nice value of an engine worker thread: about a tenth of the HTTP thread's CPU weight. */
export const WORKER_NICE = 10;

/** Lowers the calling thread's priority; false where the platform does not allow it. */
export function lowerThreadPriority(nice = WORKER_NICE): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", { setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 } });
    try {
      // PRIO_PROCESS with who 0 is the calling thread on Linux, not the whole process.
      return libc.symbols.setpriority(0, 0, nice) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
