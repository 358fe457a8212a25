// Performance trick 9 of docs/adr/0013 (gain, removal): requests and responses are made with the listener's
// Express prototypes, so Express's per-request Object.setPrototypeOf finds nothing to do.
// Held by express-prototypes.spec.ts and every e2e test on the wire.
import { IncomingMessage as NodeIncomingMessage, ServerResponse as NodeServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** What `http.createServer` takes to make its requests and responses (Node's `IncomingMessage`/`ServerResponse` options). */
export interface MessageClasses {
  IncomingMessage: typeof NodeIncomingMessage;
  ServerResponse: typeof NodeServerResponse;
}

/**
 * Node's request and response constructors, with the Express app's own `app.request` and `app.response` as the
 * prototype of what they make. Express's `app.handle` gives every request and response those prototypes with
 * `Object.setPrototypeOf`, and V8 carries out each change of prototype as a map transition of the object: ~15,000
 * instructions a call, ~30,000 of a 2-line prepare's ~560,000 (bench/by-function.mjs, bench/RESULTS.md, seventh
 * session). An object made with the right prototype from the start is one V8 leaves as it is ("nothing to do if
 * the prototype is already set"). Both prototypes descend from Node's (Express's `req`/`res` objects are made from
 * `IncomingMessage.prototype`/`ServerResponse.prototype`).
 *
 * Each object is made by Node's own constructor with the wrapper as `new.target` (`Reflect.construct`), so V8 lays
 * it out as Node's constructor lays out its objects, with room for the fields it sets, and only the prototype taken
 * from the wrapper. A first version called Node's constructor on the wrapper's own `this`: the wrapper's objects
 * had room for few fields, went to dictionary mode as Node's constructor added its ~30, and the request cost 42,000
 * instructions more instead of 30,000 fewer (bench/RESULTS.md).
 */
export function expressMessageClasses(app: Express): MessageClasses {
  // Node makes them as it makes its own, `new IncomingMessage(socket)` and `new ServerResponse(req, options)`; each
  // returns the object Node's constructor made (the receiver `new` made for the wrapper itself is dropped)
  function IncomingMessage(socket: Socket): NodeIncomingMessage {
    return Reflect.construct(NodeIncomingMessage, [socket], IncomingMessage) as NodeIncomingMessage;
  }
  IncomingMessage.prototype = app.request;
  function ServerResponse(req: NodeIncomingMessage, options?: unknown): NodeServerResponse {
    return Reflect.construct(NodeServerResponse, [req, options], ServerResponse) as NodeServerResponse;
  }
  ServerResponse.prototype = app.response;
  return {
    IncomingMessage: IncomingMessage as unknown as typeof NodeIncomingMessage,
    ServerResponse: ServerResponse as unknown as typeof NodeServerResponse,
  };
}
