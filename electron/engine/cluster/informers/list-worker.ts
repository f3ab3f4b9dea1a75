/**
 * The list worker's entry (a worker thread, see list-decoder.ts): page bodies in, slim objects'
 * JSON out (list-decode.ts `pageText`). It keeps nothing between pages.
 */
import { parentPort } from 'node:worker_threads';
import { pageText } from './list-decode.ts';
import { pageBodyText } from './list-managed-fields.ts';
import type { DecodeReply, DecodeRequest } from './list-decoder.ts';
import { eventObjectsText } from './watch-decode.ts';

parentPort?.on('message', (request: DecodeRequest) => {
  let reply: DecodeReply;
  try {
    const page = 'objects' in request ? eventObjectsText(request.objects, request.source) : pageText(pageBodyText(Buffer.from(request.body), request.source), request.source);
    reply = { id: request.id, page };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
