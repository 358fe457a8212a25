import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { type Observable, tap } from 'rxjs';
import type { ObservedLocals } from '../http/observed-locals';
import type { ObservedRequest } from './http-logger';

/**
 * Notes what a handler established for the request's log line and the metrics: the operation id of a
 * write (or of the receipt looked up) and whether the answer was an idempotent replay.
 */
@Injectable()
export class ObservationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<ObservedRequest & { params?: Record<string, string> }>();
    const res = http.getResponse<Response>();
    if (typeof req.params?.operationId === 'string') req.operationId = req.params.operationId;
    return next.handle().pipe(
      tap((result) => {
        if (!result || typeof result !== 'object') return;
        const body = result as { operation_id?: unknown; replayed?: unknown };
        if (typeof body.operation_id === 'string') req.operationId = body.operation_id;
        if (body.replayed === true) (res.locals as ObservedLocals).replayed = true;
      }),
    );
  }
}
