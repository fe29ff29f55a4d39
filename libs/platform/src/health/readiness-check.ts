/** A dependency the process needs in order to serve. `probe` rejects when the dependency is unusable. */
export interface ReadinessCheck {
  readonly dependency: string;
  probe(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Bounds a probe so a hanging dependency reads as down instead of blocking the readiness answer. */
export async function withTimeout(
  probe: Promise<unknown>,
  timeoutMs: number,
  dependency: string,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${dependency} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
