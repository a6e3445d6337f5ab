import bundlePath from "../../build/assets/rulesets.bundle" with { type: "file" };
import { workerData } from "node:worker_threads";
import { Bundle } from "./bundle-format";

/**
 * The ruleset bundle made by `scripts/bundle-assets.ts`. The file import makes `bun build --compile`
 * embed it; outside the executable it resolves to the file in build/.
 *
 * A process reads it once, into memory its engine workers share: each worker would otherwise hold
 * its own copy (6 MiB each, for as long as it lives). The pool hands the bytes to every worker it
 * starts ({@link workerAssets}); a worker started without them reads the file itself.
 */
let bytes: SharedArrayBuffer | undefined;
let loaded: Bundle | undefined;

/** What a worker is handed at its start (its `workerData`). */
export interface WorkerAssets {
  rulesetBundle: SharedArrayBuffer;
}

function bundleBytes(): SharedArrayBuffer {
  if (!bytes) {
    const handed = (workerData as Partial<WorkerAssets> | null | undefined)?.rulesetBundle;
    bytes = handed instanceof SharedArrayBuffer ? handed : readShared(bundlePath);
  }
  return bytes;
}

function readShared(path: string): SharedArrayBuffer {
  const file = require("node:fs").readFileSync(path) as Uint8Array;
  const shared = new SharedArrayBuffer(file.byteLength);
  new Uint8Array(shared).set(file);
  return shared;
}

export function rulesetBundle(): Bundle {
  loaded ??= new Bundle(new Uint8Array(bundleBytes()));
  return loaded;
}

/** The `workerData` of an engine worker: this process's bundle bytes, not a copy. */
export function workerAssets(): WorkerAssets {
  return { rulesetBundle: bundleBytes() };
}
