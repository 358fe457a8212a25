import { defineCatalogue } from '../../../shared/web';

/** The developer console's texts (CONTRACT §15, §18), in English and Danish. */
export const DEVELOPER_MESSAGES = defineCatalogue('developers', {
  en: { brand: '{service} · Developers' },
  da: { brand: '{service} · Udviklere' },
});
