/** Gives back a place taken from an AdmissionGate; calling it more than once gives it back once. */
export type ReleaseAdmission = () => void;

export interface AdmissionSettings {
  /** Holders at once. */
  inProgress: number;
  /** Callers waiting at once for a place; a caller beyond them is refused at once. */
  maxWaiting: number;
  /** How long a caller waits for a place before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  admit: (release: ReleaseAdmission | undefined) => void;
  timer: NodeJS.Timeout;
}

/**
 * Admits at most `inProgress` holders at once; further callers wait in arrival order, at most `maxWaiting` of them
 * and for at most `maxWaitMs` each. A refused caller gets no place (undefined), which a service answers with 503
 * and Retry-After. Bounds what a burst of one kind of request costs the process before any of its work is done.
 */
export class AdmissionGate {
  private holders = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly settings: AdmissionSettings) {}

  /** A place, once one is free; undefined when refused, or when `abandoned` aborts first. */
  enter(abandoned?: AbortSignal): Promise<ReleaseAdmission | undefined> {
    if (abandoned?.aborted) return Promise.resolve(undefined);
    if (this.holders < this.settings.inProgress) return Promise.resolve(this.take());
    if (this.waiters.size >= this.settings.maxWaiting) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: (release) => {
          this.waiters.delete(waiter);
          clearTimeout(waiter.timer);
          abandoned?.removeEventListener('abort', leave);
          resolve(release);
        },
        timer: setTimeout(() => waiter.admit(undefined), this.settings.maxWaitMs).unref(),
      };
      const leave = () => waiter.admit(undefined);
      abandoned?.addEventListener('abort', leave, { once: true });
      this.waiters.add(waiter);
    });
  }

  private take(): ReleaseAdmission {
    this.holders += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holders -= 1;
      this.admitNext();
    };
  }

  /** The longest waiting caller takes the place given back (a Set iterates in insertion order). */
  private admitNext(): void {
    const next = this.waiters.values().next();
    if (!next.done) next.value.admit(this.take());
  }
}
