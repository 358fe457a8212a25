import { NotFoundError } from '../domain/errors';
import { UuidParamPipe } from './uuid-param.pipe';

describe('UuidParamPipe', () => {
  const pipe = new UuidParamPipe('organization');

  it('lower-cases a uuid', () => {
    expect(pipe.transform('1111AAAA-1111-4111-8111-11111111BBBB')).toBe('1111aaaa-1111-4111-8111-11111111bbbb');
  });

  it.each([['not-a-uuid'], [''], ['1111aaaa-1111-4111-8111-11111111bbbb '], [undefined]])('answers %j with 404 "No such <what>"', (value) => {
    expect(() => pipe.transform(value)).toThrow(NotFoundError);
    expect(() => pipe.transform(value)).toThrow('No such organization');
  });
});
