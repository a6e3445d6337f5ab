/**
 * `einvoice validate FILE` as a user runs it offline: the whole process, start included, timed
 * from spawn to exit. One untimed run first, so the executable is in the page cache.
 */
export interface OfflineFigure {
  /** Wall milliseconds per timed run. */
  ms: number[];
  /** The last run's exit code (0 valid, 1 invalid, 2 not judged) and first line of output. */
  exitCode: number | null;
  firstLine: string;
}

export async function timeOffline(exe: string, file: string, runs: number, boundSeconds: number): Promise<OfflineFigure> {
  const figure: OfflineFigure = { ms: [], exitCode: null, firstLine: "" };
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const proc = Bun.spawn([exe, "validate", file], { stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => proc.kill(), boundSeconds * 1000);
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    figure.exitCode = await proc.exited;
    const ms = performance.now() - started;
    clearTimeout(timer);
    figure.firstLine = (out.trim() || err.trim() || `no output (signal ${proc.signalCode})`).split("\n")[0];
    if (figure.exitCode !== 0) break;
    if (i > 0) figure.ms.push(ms);
  }
  return figure;
}
