// Engine workers run at a lower priority than the HTTP thread, so a saturated engine never makes
// the other routes wait for the CPU (docs/security.md).
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { WorkerPool } from "../../src/workers/pool";
import { WORKER_NICE } from "../../src/workers/priority";

/** Name and nice value of every thread of this process. */
function threads(): { name: string; nice: number }[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), nice: Number(fields[16]) };
  });
}

const pool = new WorkerPool(2, { warm: [] });
afterAll(() => pool.close());

test.skipIf(process.platform !== "linux")("each engine worker thread runs at the lower priority; the HTTP thread keeps its own", async () => {
  await pool.ready();
  const all = threads();
  // Pools of other test files may share this process: every worker thread counts, at least this pool's two.
  const workers = all.filter((t) => t.name === "Worker");
  expect(workers.length).toBeGreaterThanOrEqual(2);
  expect(new Set(workers.map((t) => t.nice))).toEqual(new Set([WORKER_NICE]));
  expect(readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[16]).toBe("0");
});
