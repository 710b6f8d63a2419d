import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hono } from 'hono';
import type { AppContext, AppTopics } from '../context.ts';
import type { JobHandler } from '../platform/jobs/job-runner.ts';
import type { TargetDefinition } from '../platform/targets/targets.ts';

/** A router of any environment (its own auth variables): all of them mount alike under /api. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type ModuleRouter = Hono<any, any, any>;

/** A handler for paths outside /api, on the raw node:http request (file uploads, transformed images). */
export interface PathHandler {
  /** The exact path (`/img`) or, ending in `/`, the prefix (`/media-upload/`) it answers. */
  path: string;
  handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

/** A WebSocket endpoint: upgrades on `path` are handed to it. */
export interface SocketEndpoint {
  path: string;
  handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every socket (server shutdown). */
  close: () => Promise<void>;
}

/** Work that runs on a schedule, as a recurring job (one run per slot however many processes run). */
export interface HousekeepingTask {
  /** Job name, `<module>.<what>` (`auth.prune`). */
  name: string;
  everyMs: number;
  run: (ctx: AppContext) => Promise<void>;
}

/** A bus subscription of a module, made when the app starts and ended when it closes. */
export interface Subscription {
  topic: keyof AppTopics & string;
  handle: (ctx: AppContext, payload: never) => void | Promise<void>;
}

/** Typed helper for `subscriptions`: `on('auth.session_revoked', (ctx, event) => …)`. */
export function on<K extends keyof AppTopics & string>(
  topic: K,
  handle: (ctx: AppContext, payload: AppTopics[K]) => void | Promise<void>,
): Subscription {
  return { topic, handle: handle as Subscription['handle'] };
}

/**
 * Everything one server module brings, in one object exported from `modules/<name>/index.ts` and
 * listed once in `modules/index.ts`. The app context, the HTTP server and the job runner read these;
 * nothing central names a module.
 */
export interface ServerModule {
  name: string;
  /** Its routes, mounted under /api. */
  api?: (ctx: AppContext) => ModuleRouter;
  /** Handlers for paths outside /api. */
  paths?: (ctx: AppContext) => PathHandler[];
  /** WebSocket endpoints. */
  sockets?: (ctx: AppContext) => SocketEndpoint[];
  /** Job handlers by job name (`<module>.<what>`); enqueue with `ctx.jobs.enqueue`. */
  jobs?: (ctx: AppContext) => Record<string, JobHandler<never>>;
  housekeeping?: HousekeepingTask[];
  subscriptions?: Subscription[];
  /** Target types it owns (favourites, comments, likes, reports… point at these). */
  targets?: TargetDefinition[];
  /** Runs when the app context is ready (after migrations), before any request. */
  start?: (ctx: AppContext) => void | Promise<void>;
  /** Runs when the app closes, in reverse module order, before the database closes. */
  stop?: (ctx: AppContext) => void | Promise<void>;
}

export const defineModule = (module: ServerModule): ServerModule => module;
