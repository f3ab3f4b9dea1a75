/**
 * The list worker's entry (a worker thread, see list-decoder.ts): page bodies in, slim objects'
 * JSON out (list-decode.ts `pageText`). It keeps nothing between pages.
 */
import { parentPort } from 'node:worker_threads';
import { pageText } from './list-decode.ts';
import type { DecodeReply, DecodeRequest } from './list-decoder.ts';

parentPort?.on('message', (request: DecodeRequest) => {
  let reply: DecodeReply;
  try {
    reply = { id: request.id, page: pageText(Buffer.from(request.body).toString('utf8'), request.source) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
