/// <reference lib="webworker" />
// A worker for shared-bundle.test.ts: it reads the ruleset bundle as an engine worker does and says
// where its bytes live.
import { workerData } from "node:worker_threads";
import { rulesetBundle } from "../../src/assets/bundle";

declare const self: Worker;

const bundle = rulesetBundle();
const bytes = (bundle as unknown as { bytes: Uint8Array }).bytes;
const handed = (workerData as { rulesetBundle?: SharedArrayBuffer } | null | undefined)?.rulesetBundle;
self.postMessage({ handed: handed !== undefined && bytes.buffer === handed, shared: bytes.buffer instanceof SharedArrayBuffer, paths: bundle.paths().length });
