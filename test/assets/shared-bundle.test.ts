import { expect, test } from "bun:test";
import { rulesetBundle } from "../../src/assets/bundle";
import { engineWorkerOptions } from "../../src/workers/pool";

interface Seen {
  handed: boolean;
  shared: boolean;
  paths: number;
}

function readInWorker(options: Bun.WorkerOptions): Promise<Seen> {
  const worker = new Worker(new URL("./bundle-reader-worker.ts", import.meta.url).href, options);
  return new Promise<Seen>((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data as Seen);
    worker.onerror = (event) => reject(new Error(event.message));
  }).finally(() => worker.terminate());
}

test("an engine worker reads the ruleset bundle from the memory the process read it into, not a copy of its own", async () => {
  const paths = rulesetBundle().paths().length;
  // Started as the pool starts its workers.
  expect(await readInWorker(engineWorkerOptions())).toEqual({ handed: true, shared: true, paths });
  // A worker started without it reads the file itself.
  expect(await readInWorker({})).toEqual({ handed: false, shared: true, paths });
});
