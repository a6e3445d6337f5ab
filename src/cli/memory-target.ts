import { totalmem } from "node:os";
import { memoryTargetMiB } from "../config";

/**
 * The memory the server sizes its JavaScript heaps for, and how much garbage each heap may gather
 * before it is collected. JavaScriptCore grows each heap (the HTTP thread and every validation
 * worker) in proportion to the machine's RAM: on a large host a worker lets garbage reach twice its
 * live size before collecting, and a 500-line invoice validated on two workers took the process
 * from 270 MiB to a gigabyte. Told a smaller RAM size, JavaScriptCore collects sooner and harder as
 * the process nears it (measured per load of the bench, bench/memory-phases.ts: peaks of 600-980
 * MiB with this host's 24 GiB, 430-550 at 512, 370-490 at 384).
 *
 * The RAM size alone still lets a heap double. JavaScriptCore picks a heap's growth factor by the
 * process's footprint as its allocator counts it (less than the RSS) against the RAM size: the
 * small factor under 80% of it, the medium one under 90%, the large one above (Bun's build reads
 * the footprint; defaults 2, 1.5 and 1.24). `serve` lets a heap grow by 60% of its live size
 * while the process is under 80% of the target, by 30% up to 90% and by 20% past it, and lets
 * young-generation collections run until the young generation is under 15% of the heap.
 *
 * Near the target the factors are tight: a worker's heap counts libxml2's WASM memory and the
 * ruleset bundle (about 60 MiB that never become garbage), so JavaScriptCore's own factors let
 * about 70 MiB of garbage gather per worker, and the peak of the bench's loads is reached there
 * (generations and every profile's rules loaded: 445 and 453 MiB in two replays of the bench's
 * first server with the tiers 1.3, 1.3 and 1.2; 444 with the small one at 1.6, 454 at 2, 464 with
 * the medium one at 1.6 too). Far from it the small factor is what a 1 MiB document meets:
 * judging one allocates 30-40 MiB, and a heap allowed 30% collected in the middle of every such
 * job, its tree surviving into the old generation and a full collection of the whole heap
 * following every second document. At 1.6, in the same replays, sequential 900-line UBL
 * validations took 54 ms median against 74, 677-line CII 60 against 64, and typical validations
 * on 4 clients ran at 676/s against 603. With every profile's rules loaded first, the same large
 * documents took as long at 1.6 as at 1.3 (104 and 92 ms), peaking at 448 and 437 MiB:
 * docs/validation.md, "Speed and memory".
 *
 * The young bound must stay under what the growth factor leaves young (f - 1) / f, or every young
 * collection turns into a full one: JavaScriptCore's own bound, a third, does that below a factor
 * of 1.5, and a fifth did it past half the target (0.2 / 1.2 is a sixth): once the workers held
 * every profile's rules, the collector's helper threads took 1.0-1.3 ms of CPU per typical
 * validation over HTTP, 0.1 at 15%, for 25-40% more validations per second, at the same peak in a
 * replay of the bench's loads (465 MiB). The collector log, BUN_JSC_logGC=1, shows the cycles;
 * bench/memory-phases.ts measures each load.
 *
 * JavaScriptCore reads these options once, when the process starts, and Bun offers no way to set
 * them later, so `serve` re-executes itself with them set: execve keeps the pid, open descriptors
 * and arguments, and happens before anything is loaded or printed.
 */
const MEMORY_TARGET_ENV = "MEMORY_TARGET_MIB";
const JSC_RAM_SIZE = "BUN_JSC_forceRAMSize";
const MIB = 1024 * 1024;

/** How far a heap may grow past its live size before a full collection (JavaScriptCore options, as `BUN_JSC_*`). */
export const COLLECTION_POLICY: Readonly<Record<string, string>> = {
  // The process's footprint under 80%, under 90% and over 90% of the RAM size (defaults 2, 1.5, 1.24).
  BUN_JSC_smallHeapGrowthFactor: "1.6",
  BUN_JSC_mediumHeapGrowthFactor: "1.3",
  BUN_JSC_largeHeapGrowthFactor: "1.2",
  // A young collection is followed by a full one once the young generation is under this share of
  // the heap (default 1/3): below 0.2 / 1.2, so the largest heaps still collect young.
  BUN_JSC_minEdenToOldGenerationRatio: "0.15",
};

/** 128 MiB for the HTTP thread and the runtime, 128 MiB per validation worker: 384 on two cores. */
export const defaultTargetMiB = (workers: number) => 128 + 128 * workers;

/**
 * The heap-sizing RAM size in bytes, or undefined to leave JavaScriptCore's own: `MEMORY_TARGET_MIB`
 * (a whole number of MiB, or `off`), else the default for the worker count; never above the
 * machine's memory.
 */
export function memoryTargetBytes(workers: number, value?: string, machineBytes = totalmem()): number | undefined {
  const mib = memoryTargetMiB(value) ?? defaultTargetMiB(workers);
  return mib === "off" ? undefined : Math.min(mib * MIB, machineBytes);
}

/**
 * The JavaScriptCore options `serve` runs with for a target of `bytes`: the RAM size and the
 * collection policy, each unless the environment sets it already (an operator's value wins).
 * Empty when everything is set, so the re-executed process does not re-execute again.
 */
export function heapOptions(bytes: number, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const wanted: Record<string, string> = { [JSC_RAM_SIZE]: String(bytes), ...COLLECTION_POLICY };
  return Object.fromEntries(Object.entries(wanted).filter(([name]) => !env[name]));
}

/** What the re-executed process runs: the same program with the same arguments. */
export function reexecArgv(argv = process.argv, execPath = process.execPath, execArgv = process.execArgv): string[] {
  // A compiled executable reports its entry as argv[1] inside Bun's virtual file system; the
  // executable itself takes only the user's arguments.
  const compiled = argv[1]?.startsWith("/$bunfs/");
  return compiled ? [execPath, ...argv.slice(2)] : [execPath, ...execArgv, ...argv.slice(1)];
}

/**
 * Re-executes the process with the heap options set, unless they are set already (by this, or by
 * an operator who chose their own). Returns a note for the start-up log; never returns when the
 * re-execution happened.
 */
export function applyMemoryTarget(workers: number): string {
  const bytes = memoryTargetBytes(workers);
  const missing = bytes === undefined ? {} : heapOptions(bytes);
  if (Object.keys(missing).length > 0) {
    const failure = execve(reexecArgv(), { ...process.env, ...missing });
    return `JavaScript heaps sized for the machine's memory: could not re-execute with ${Object.keys(missing).join(", ")} (${failure}); set them in the environment`;
  }
  const chosen = process.env[JSC_RAM_SIZE];
  return chosen ? `JavaScript heaps sized for ${(Number(chosen) / MIB).toFixed(0)} MiB` : `JavaScript heaps sized for the machine's memory (${MEMORY_TARGET_ENV}=off)`;
}

/** Replaces the process image; returns why it could not. */
function execve(argv: string[], env: Record<string, string | undefined>): string {
  let ffi: typeof import("bun:ffi");
  let libc;
  try {
    ffi = require("bun:ffi");
    libc = ffi.dlopen(process.platform === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6", {
      execve: { args: [ffi.FFIType.ptr, ffi.FFIType.ptr, ffi.FFIType.ptr], returns: ffi.FFIType.i32 },
    });
  } catch (error) {
    return `no C library to call: ${(error as Error).message}`;
  }
  // NUL-terminated strings and NULL-terminated pointer arrays; the buffers stay referenced until the call.
  const strings: Buffer[] = [];
  const cString = (s: string) => {
    const bytes = Buffer.from(`${s}\0`);
    strings.push(bytes);
    return ffi.ptr(bytes);
  };
  const pointers = (items: string[]) => {
    const array = new BigUint64Array(items.length + 1);
    items.forEach((item, i) => (array[i] = BigInt(cString(item))));
    return array;
  };
  const path = cString(argv[0]);
  const args = pointers(argv);
  const envp = pointers(Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`])));
  libc.symbols.execve(path, ffi.ptr(args), ffi.ptr(envp));
  return `execve failed for ${argv[0]}`;
}
