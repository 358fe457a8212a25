import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../domain/errors';
import { isUuid } from './validation/constraints';

/**
 * Canonical ids at the edge: a path id that is not a uuid names nothing (404 `not_found`, "No such
 * <what>", CONTRACT §4, §10); one that is reaches the application lower-cased, so that use cases
 * compare and store ids as they are. One instance per decorated parameter, made when the controller
 * class is defined — nothing per request.
 */
@Injectable()
export class UuidParamPipe implements PipeTransform<unknown, string> {
  constructor(private readonly what: string) {}

  transform(value: unknown): string {
    if (!isUuid(value)) throw new NotFoundError(this.what);
    return value.toLowerCase();
  }
}

/** `@UuidParam('organizationId', 'organization')`: the path parameter, validated and lower-cased. */
export const UuidParam = (name: string, what: string): ParameterDecorator => Param(name, new UuidParamPipe(what));
