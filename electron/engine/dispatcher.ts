/**
 * Validates every incoming request against the contract and turns every outcome, including a
 * throwing handler, into a Result. Both transports call `dispatch`; neither trusts its caller.
 */
import type { z } from 'zod';
import { requests, isRequestChannel, type RequestChannel, type ResponseOf } from '../../shared/contract.ts';
import { err, type Result } from '../../shared/result.ts';

export type Handler<C extends RequestChannel> = (
  payload: z.output<(typeof requests)[C]['request']>,
) => Promise<Result<ResponseOf<C>>> | Result<ResponseOf<C>>;

export type Handlers = { [C in RequestChannel]: Handler<C> };

export interface Dispatcher {
  dispatch(channel: unknown, payload: unknown): Promise<Result<unknown>>;
}

/** Summarises zod issues as one readable line: `name: expected string, received number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(payload)'}: ${issue.message}`)
    .join('; ');
}

export function createDispatcher(handlers: Handlers, options: { log?: (message: string) => void } = {}): Dispatcher {
  const log = options.log ?? ((message: string) => console.error(message));
  return {
    async dispatch(channel, payload) {
      if (!isRequestChannel(channel)) {
        return err('unknown-channel', `Unknown request channel: ${String(channel).slice(0, 80)}`);
      }
      const parsed = requests[channel].request.safeParse(payload ?? {});
      if (!parsed.success) {
        return err('invalid-request', `Invalid payload for ${channel}`, describeIssues(parsed.error));
      }
      const handler = handlers[channel] as (p: unknown) => Promise<Result<unknown>> | Result<unknown>;
      try {
        return await handler(parsed.data);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`[kubedrift] handler ${channel} failed: ${error instanceof Error ? (error.stack ?? message) : message}`);
        return err('internal', `${channel} failed: ${message}`);
      }
    },
  };
}
