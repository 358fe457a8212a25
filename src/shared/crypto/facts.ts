import { declareModuleFacts } from '../module-facts';

/** What shared/crypto (infrastructure: one fingerprint per SECRETS_KEY version (CONTRACT §8), written and read at start and by npm run migrate) declares to the rest of the service: src/shared/module-facts.ts. */
export const CRYPTO_FACTS = declareModuleFacts({
  module: 'shared/crypto',
  tables: ['secrets_key_fingerprints'],
});
