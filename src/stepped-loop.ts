/**
 * Background work `serve` runs while it serves (webhook deliveries, transmission delivery, inbound
 * judging): one step at a time, the next `intervalMs` after the last ended (at once when the step
 * answers `true`: it left work due), a failed step logged and the next one run. Stopping waits for
 * the step under way, so no attempt is cut off unrecorded.
 */
export function runSteps(name: string, step: () => Promise<unknown>, intervalMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    running = step()
      .catch((error) => console.error(JSON.stringify({ level: "error", event: `${name}-step-failed`, message: (error as Error).message })))
      .then((more) => {
        if (!stopped) timer = setTimeout(tick, more === true ? 0 : intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
