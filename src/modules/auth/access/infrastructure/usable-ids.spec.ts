import { usableIds } from './pg-access.repository';

describe('usableIds: the ids of a uuid[] as PostgreSQL writes it as text', () => {
  it('reads none from an empty array, a missing one and null', () => {
    expect(usableIds('{}')).toEqual(new Set());
    expect(usableIds(null)).toEqual(new Set());
    expect(usableIds(undefined)).toEqual(new Set());
  });

  it('reads one id and several, as written', () => {
    expect(usableIds('{0f8b6c3e-1d2a-4b5c-9e7f-a1b2c3d4e5f6}')).toEqual(new Set(['0f8b6c3e-1d2a-4b5c-9e7f-a1b2c3d4e5f6']));
    expect(usableIds('{0f8b6c3e-1d2a-4b5c-9e7f-a1b2c3d4e5f6,7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d}')).toEqual(
      new Set(['0f8b6c3e-1d2a-4b5c-9e7f-a1b2c3d4e5f6', '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d']),
    );
  });
});
