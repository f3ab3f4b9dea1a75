/**
 * `kubedrift record --listen HOST:PORT`: serves the recorded contexts' history to apps (Settings →
 * History sources) over the contract's WebSocket framing, guarded by a bearer token from
 * `--token-file` (one token a line, re-read on every connection, so replacing the file rotates
 * the token at once and the old one is refused as expired) or $KUBEDRIFT_RECORDER_TOKEN. It
 * never listens without a token.
 */
import { readFileSync } from 'node:fs';
import type { HistoryStatus } from '../../shared/contracts/history.ts';
import type { RecordedContext } from '../../shared/contracts/history-sources.ts';
import { createRecorderHistory } from '../engine/history/sources/recorder-history.ts';
import { startHistoryServer } from '../web/history-server.ts';
import { UsageError } from './args.ts';

/** The environment variable that may hold the token instead of a file. */
export const RECORDER_TOKEN_ENV = 'KUBEDRIFT_RECORDER_TOKEN';
/** Shorter tokens are refused: a guessable token would open the cluster's history to anyone. */
export const MIN_TOKEN_LENGTH = 16;

export interface ListenAddress {
  host: string;
  port: number;
}

/** Parses `HOST:PORT` (`[::1]:8443` for IPv6; `:PORT` means 127.0.0.1). */
export function parseListen(value: string): ListenAddress {
  const match = /^(\[[^\]]+\]|[^:]*):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new UsageError(`--listen must be HOST:PORT such as 127.0.0.1:7443 or 0.0.0.0:7443, got "${value}"`);
  const host = (match[1] ?? '').replace(/^\[|\]$/g, '') || '127.0.0.1';
  return { host, port };
}

/** The tokens in a token file's text: one a line, blank lines and `#` comments ignored. */
export function tokensIn(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0 && !line.startsWith('#'));
}

function checkTokens(tokens: readonly string[], where: string): void {
  if (tokens.length === 0) throw new UsageError(`${where} holds no token; --listen serves history only behind a token`);
  if (tokens.some((token) => token.length < MIN_TOKEN_LENGTH)) throw new UsageError(`every token in ${where} must be at least ${MIN_TOKEN_LENGTH} characters (try: openssl rand -base64 32)`);
}

/** Where the tokens come from: re-read per connection from the file; fixed from the environment. */
export function tokenSource(file: string | undefined, env: Record<string, string | undefined>, log: (message: string) => void): () => readonly string[] {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--token-file ${file} cannot be read: ${(error as Error).message}`);
    }
    checkTokens(tokensIn(text), `--token-file ${file}`);
    let warned = false;
    return () => {
      try {
        const tokens = tokensIn(readFileSync(file, 'utf8')).filter((token) => token.length >= MIN_TOKEN_LENGTH);
        warned = false;
        return tokens;
      } catch (error) {
        // Refuse everyone rather than keep serving on a token that may have been revoked.
        if (!warned) log(`history: --token-file ${file} cannot be read (${(error as Error).message}); every connection is refused until it can`);
        warned = true;
        return [];
      }
    };
  }
  const token = env[RECORDER_TOKEN_ENV]?.trim();
  if (!token) throw new UsageError(`--listen needs a token: --token-file FILE, or $${RECORDER_TOKEN_ENV}`);
  checkTokens([token], `$${RECORDER_TOKEN_ENV}`);
  return () => [token];
}

export interface RecorderListenOptions {
  address: ListenAddress;
  tokens(): readonly string[];
  dataDir: string;
  contexts: readonly RecordedContext[];
  log(message: string): void;
  /** How each context's recorder is doing (its `history:status` state). */
  recording(context: string): Pick<HistoryStatus, 'state' | 'message'>;
}

/** Starts serving; resolves with the bound port and a close function. */
export async function startRecorderListen(options: RecorderListenOptions): Promise<{ port: number; close(): Promise<void> }> {
  const history = createRecorderHistory({ dataDir: options.dataDir, contexts: options.contexts, now: Date.now, log: options.log, recording: options.recording });
  const server = await startHistoryServer({
    host: options.address.host,
    port: options.address.port,
    tokens: options.tokens,
    contexts: options.contexts.map((context) => context.name),
    dispatch: (context, channel, payload) => history.dispatch(context, channel, payload),
  }).catch((error: unknown) => {
    history.close();
    throw error;
  });
  return {
    port: server.port,
    async close() {
      await server.close();
      history.close();
    },
  };
}
