/** Where a dependency came from: a URL in the environment, a server already running here, or one started by us. */
export type ServiceSource = 'env' | 'local' | 'embedded';

/** A dependency to use at `url`; `stop()` stops it only when this process started it. */
export interface ServiceHandle {
  url: string;
  source: ServiceSource;
  stop(): Promise<void>;
}

/** A private server for tests that stop and restart a dependency: `start()` brings it back on the same port. */
export interface RestartableService {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface ResolveOptions {
  /** Where a server started here keeps its data and log (`<stateDir>/postgres`, `<stateDir>/redis`). */
  stateDir: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** The port on 127.0.0.1 probed for a server that already runs (5432, 6379); tests point it elsewhere. */
  localPort?: number;
}
