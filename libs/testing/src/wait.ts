/**
 * Polls `probe` every `intervalMs` until it yields a value (anything but undefined) and returns it; fails after
 * `timeoutMs` with `context()` in the message (e.g. a process's output).
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  context: () => string = () => '',
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether the promise has settled by the next turn of the event loop. */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (
    (await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(pending), 0))])) !==
    pending
  );
}
