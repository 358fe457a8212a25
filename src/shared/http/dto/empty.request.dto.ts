import { NoFields } from '../validation/fields';

/** A body that takes no fields: `{}`; any field is unknown (CONTRACT §5). */
@NoFields()
export class EmptyRequestDto {}
